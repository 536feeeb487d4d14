"""ImageFolder (JPEG files, one folder per class) input pipeline."""
import mindspore.common.dtype as mstype
import mindspore.dataset as ds
import mindspore.dataset.transforms as transforms
import mindspore.dataset.vision as vision


def create_dataset(data_path, do_train, batch_size=16, image_size=32, num_parallel_workers=1):
    """Decoded, resized, normalised NCHW float32 batches and int32 labels."""
    data_set = ds.ImageFolderDataset(data_path, shuffle=do_train, decode=False,
                                     num_parallel_workers=num_parallel_workers)
    mean = [0.485 * 255, 0.456 * 255, 0.406 * 255]
    std = [0.229 * 255, 0.224 * 255, 0.225 * 255]
    if do_train:
        trans = [vision.RandomCropDecodeResize(image_size, scale=(0.6, 1.0), ratio=(0.75, 1.333)),
                 vision.RandomHorizontalFlip(prob=0.5)]
    else:
        trans = [vision.Decode(), vision.Resize((image_size, image_size))]
    trans += [vision.Normalize(mean=mean, std=std), vision.HWC2CHW()]
    data_set = data_set.map(operations=trans, input_columns="image", num_parallel_workers=num_parallel_workers)
    data_set = data_set.map(operations=transforms.TypeCast(mstype.int32), input_columns="label",
                            num_parallel_workers=num_parallel_workers)
    return data_set.batch(batch_size, drop_remainder=True)
