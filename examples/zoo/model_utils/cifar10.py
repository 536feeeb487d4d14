"""CIFAR-10 (binary version) input pipeline."""
import mindspore.common.dtype as mstype
import mindspore.dataset as ds
import mindspore.dataset.transforms as transforms
import mindspore.dataset.vision as vision


def create_dataset(data_path, do_train, batch_size=32, num_samples=None, image_size=32, num_parallel_workers=1,
                   device_num=1, rank_id=0):
    """Batches of (image NCHW float32, label int32) from ``data_batch_*.bin`` (train)
    or ``test_batch.bin`` (eval); ``num_samples`` keeps only that many records;
    ``device_num > 1`` reads shard ``rank_id`` of ``device_num``."""
    if device_num > 1:
        data_set = ds.Cifar10Dataset(data_path, usage="train" if do_train else "test", num_samples=num_samples,
                                     shuffle=do_train, num_parallel_workers=num_parallel_workers,
                                     num_shards=device_num, shard_id=rank_id)
    else:
        data_set = ds.Cifar10Dataset(data_path, usage="train" if do_train else "test", num_samples=num_samples,
                                     shuffle=do_train, num_parallel_workers=num_parallel_workers)
    trans = []
    if do_train:
        trans += [vision.RandomCrop((32, 32), (4, 4, 4, 4)), vision.RandomHorizontalFlip(prob=0.5)]
    if image_size != 32:
        trans.append(vision.Resize((image_size, image_size)))
    trans += [vision.Rescale(1.0 / 255.0, 0.0),
              vision.Normalize([0.4914, 0.4822, 0.4465], [0.2023, 0.1994, 0.2010]),
              vision.HWC2CHW()]
    data_set = data_set.map(operations=transforms.TypeCast(mstype.int32), input_columns="label",
                            num_parallel_workers=num_parallel_workers)
    data_set = data_set.map(operations=trans, input_columns="image", num_parallel_workers=num_parallel_workers)
    return data_set.batch(batch_size, drop_remainder=True)
