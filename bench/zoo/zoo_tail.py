"""More official models for ``run_zoo.py`` (issue 36): ShuffleNetV1 at O3 and O0, YOLOv5,
Wide&Deep and the long tail. Each entry is ``(zoo folder, argv function, step regex,
checkpoint glob)`` as in ``run_zoo.MODELS``; an argv function writes its synthetic data
(``zoo_data``) on first use and may put shims on the run's ``PYTHONPATH``
(``data["pythonpath"][name]``), the same on both frameworks' side.

Worker counts: several scripts hard-code ``num_parallel_workers`` above this machine's 2 cores
(ShuffleNetV1: 8, Wide&Deep's MindDataset: 4). ``zoo_data.cpu_count_preload`` (an ``LD_PRELOAD``
library) makes ``os.cpu_count()`` and the C++ ``hardware_concurrency()`` that MindSpore's dataset
engine checks report 8, on both frameworks' side alike.
"""
import os
import subprocess
import sys

import zoo_data

MODELS, MAX_STEPS, LOAD_CHECK, LOSS_RE = {}, {}, {}, {}
# models run as a launched job: name -> worker count (msjax: ``python -m msjax launch``, MindSpore:
# the ``msrun`` beside ``--ms-python``, both with ``--worker_num=N --local_worker_num=N --join=True``)
LAUNCH = {}


def _cpus8(data, name, root, cpus=8):
    data.setdefault("env", {})[name] = {"LD_PRELOAD": zoo_data.cpu_count_preload(root, cpus)}


def _shufflenetv1(amp_level):
    def argv(zoo, work, data, out):
        # ShuffleNetV1 2.0x (the default size) on 224x224 crops (fixed in its dataset.py) of 32
        # JPEG images in 4 classes: batch 8, 4 steps an epoch, 4 epochs; loss scale 1024 as configured
        root = os.path.join(work, "data")
        _cpus8(data, f"shufflenetv1_{amp_level.lower()}", root)
        images = zoo_data.image_folder(root, per_class=8, size=64, name="imagefolder_32")
        return ["train.py", "--device_target=CPU", f"--amp_level={amp_level}", f"--train_dataset_path={images}/train",
                "--num_classes=4", "--batch_size=8", "--epoch_size=4", "--warmup_epochs=1",
                f"--save_ckpt_path={out}", "--keep_checkpoint_max=1"]
    argv.__name__ = f"_shufflenetv1_{amp_level.lower()}"
    return argv


for _level in ("O3", "O0"):
    _name = f"shufflenetv1_{_level.lower()}"
    MODELS[_name] = ("official/cv/ShuffleNet/shufflenetv1", _shufflenetv1(_level),
                     r"epoch: \d+ step: \d+, loss is", "shufflenetv1*.ckpt")
    MAX_STEPS[_name] = 0
    LOAD_CHECK[_name] = ("src.shufflenetv1", "ShuffleNetV1(model_size='2.0x', n_class=4)")


def _yolov5(zoo, work, data, out):
    # YOLOv5s on a COCO-format set of 8 pictures (160x160; its loader resizes/mosaics to 640), batch 2,
    # one epoch of 4 steps, a log line each step; it reads pictures with np.fromfile(..., 'int8') and
    # imports pycocotools (``--msjax-pythonpath`` / both sides' PYTHONPATH: ``data["pythonpath"]``)
    root = os.path.join(work, "data")
    coco = zoo_data.coco_detection(root)
    _cpus8(data, "yolov5", root)
    # MindSpore 2.10's venv has no OpenCV: the version msjax's has, for both sides
    data.setdefault("pythonpath", {})["yolov5"] = zoo_data.pip_target(root, "pycocotools",
                                                                      "opencv-python-headless==4.11.0.86")
    return ["train.py", "--device_target=CPU", f"--data_dir={coco}", "--train_img_dir=images",
            "--train_ann_file=annotations/instances.json", "--val_img_dir=images",
            "--val_ann_file=annotations/instances.json", "--per_batch_size=2", "--max_epoch=1", "--T_max=1",
            "--warmup_epochs=0", "--log_interval=1", f"--output_dir={out}", "--output_path=/"]


def _wide_deep(zoo, work, data, out):
    # Criteo-layout MindRecord (16 records of 1000 rows, 39 fields, ids < 200,000): batch 1000,
    # 16 steps; its MindDataset reads with 4 workers (the LD_PRELOAD count on both sides)
    root = os.path.join(work, "data")
    _cpus8(data, "wide_deep", root)
    # its src/datasets.py imports pandas (for the H5 path) at the top
    data.setdefault("pythonpath", {})["wide_deep"] = zoo_data.pip_target(
        root, "pandas<3", "python-dateutil", "pytz", "six", "tzdata")
    return ["train.py", "--device_target=CPU", f"--data_path={zoo_data.criteo_mindrecord(root)}",
            "--dataset_type=mindrecord", "--batch_size=1000", "--epochs=1", f"--ckpt_path={out}"]


MODELS.update({
    "yolov5": ("official/cv/YOLOv5", _yolov5, r"epoch\[\d+\], iter\[(\d+)\]", "yolov5_*.ckpt"),
    "wide_deep": ("official/recommend/Wide_and_Deep", _wide_deep, r"epoch: \d+, step: (\d+), wide_loss",
                  "widedeep_train*.ckpt"),
})
MAX_STEPS.update({"yolov5": 0, "wide_deep": 0})
LOAD_CHECK.update({"yolov5": None, "wide_deep": None})
LOSS_RE.update({"wide_deep": r"wide_loss: \[?(-?\d+\.\d+)"})


def _deepfm(zoo, work, data, out):
    # the Criteo MindRecord of Wide&Deep (ids < 200,000, so --data_vocab_size=200000), batch 1000,
    # 16 steps; 8 MindDataset workers (the LD_PRELOAD count); its AUC callback evaluates on 2 records
    root = os.path.join(work, "data")
    _cpus8(data, "deepfm", root)
    # its src imports pandas (dataset.py) and scikit-learn (the AUC metric); its train.py turns on
    # enable_graph_kernel, whose AKG compiler in MindSpore 2.10 imports `decorator` (not in its venv)
    data.setdefault("pythonpath", {})["deepfm"] = zoo_data.pip_target(
        root, "pandas<3", "python-dateutil", "pytz", "six", "tzdata", "scikit-learn<1.7", "scipy<1.16", "joblib",
        "threadpoolctl", "cloudpickle", "decorator")
    return ["train.py", "--device_target=CPU", f"--dataset_path={zoo_data.criteo_mindrecord(root)}",
            "--batch_size=1000", "--train_epochs=1", "--data_vocab_size=200000", f"--ckpt_path={out}",
            "--keep_checkpoint_max=1", "--save_checkpoint_steps=16"]


def _wide_deep_auto_parallel(zoo, work, data, out):
    # the branch of src/wide_and_deep.py that builds its EmbeddingLookups without vocab_cache_size
    # (``is_auto_parallel and sparse``): train_and_eval_auto_parallel.py --sparse=True (AUTO_PARALLEL,
    # sharding propagation, the deep table cut by columns, the wide one by rows, no sink), 2 launched
    # workers, each reading its 8 of the 16 records (batch 1000 a rank, 2000 a step), its EvalCallBack
    # (AUC) at the epoch's end with the strategy file the train step saved; checkpoints per rank
    # (integrated_save=False). Strategy files, eval and loss logs go to the run's folder.
    _wide_deep(zoo, work, data, out)
    root = os.path.join(work, "data")
    data["env"]["wide_deep_auto_parallel"] = data["env"]["wide_deep"]
    # src/metrics.py imports scikit-learn (roc_auc_score)
    data["pythonpath"]["wide_deep_auto_parallel"] = zoo_data.pip_target(
        root, "pandas<3", "python-dateutil", "pytz", "six", "tzdata", "scikit-learn<1.7", "scipy<1.16", "joblib",
        "threadpoolctl", "cloudpickle")
    return ["train_and_eval_auto_parallel.py", "--device_target=CPU", "--sparse=True",
            f"--data_path={zoo_data.criteo_mindrecord(root)}", "--dataset_type=mindrecord", "--batch_size=1000",
            "--epochs=1", f"--ckpt_path={out}", f"--stra_ckpt={out}/checkpoints",
            f"--eval_file_name={out}/eval.log", f"--loss_file_name={out}/loss.log"]


MODELS["wide_deep_auto_parallel"] = ("official/recommend/Wide_and_Deep", _wide_deep_auto_parallel,
                                     r"===loss=== 0 \d+ (\d+) ", "ckpt_0/widedeep_train*.ckpt")
MAX_STEPS["wide_deep_auto_parallel"] = 0
# MindSpore merges the ranks' slices with msjax's strategy file and loads them strictly into the zoo's
# train network (a script: the slices of every rank, not one file)
LOAD_CHECK["wide_deep_auto_parallel"] = os.path.join(os.path.dirname(os.path.abspath(__file__)), "wide_deep",
                                                     "ms_load.py")
LOSS_RE["wide_deep_auto_parallel"] = r"===loss=== 0 \d+ \d+ (-?\d+\.\d+)"
LAUNCH["wide_deep_auto_parallel"] = 2

MODELS["deepfm"] = ("official/recommend/DeepFM", _deepfm, r"epoch: \d+ step: (\d+), loss is", "deepfm*.ckpt")
MAX_STEPS["deepfm"] = 0
LOAD_CHECK["deepfm"] = None


# Round 2 (issue 36: the zoo's count to 30): small nets whose CPU paths run in minutes in both frameworks.
def _efficientnet_env(data, name, work):
    # 8 workers (LD_PRELOAD) and NumPy's removed aliases (its RandAugment's np.float) on both sides
    root = os.path.join(work, "data")
    _cpus8(data, name, root)
    data.setdefault("pythonpath", {})[name] = zoo_data.numpy_alias_shim(root)
    return root


def _efficientnet_b0(zoo, work, data, out):
    # the CIFAR-10 config on its CPU path (float32, LossMonitor every step), images kept at 32x32
    # (--resize_value: its RandomResizedCrop size); 8 workers (the LD_PRELOAD count). Its RandAugment
    # calls np.float, gone since NumPy 1.24: numpy_alias_shim on both sides. Stopped after 16 steps
    # (an epoch is MindSpore's whole 10,000-record file)
    root = _efficientnet_env(data, "efficientnet_b0", work)
    return ["train.py", "--config_path=efficientnet_b0_cifar10_config.yaml", "--platform=CPU", "--dataset=CIFAR10",
            f"--data_path={zoo_data.cifar10(root)[0]}", "--resize_value=32", "--num_classes=10", "--batch_size=16",
            "--epochs=1", "--warmup_epochs=0", "--lr=0.002"]


def _mobilenetv1(zoo, work, data, out):
    # its ImageNet config on the CPU target (float32; Momentum without loss scale), 224x224 crops of 32
    # JPEG pictures in 4 classes: batch 8, 4 steps an epoch, 2 epochs; 8 workers (LD_PRELOAD)
    root = os.path.join(work, "data")
    _cpus8(data, "mobilenetv1", root)
    images = zoo_data.image_folder(root, per_class=8, size=64, name="imagefolder_32")
    return ["train.py", "--config_path=default_config_imagenet.yaml", "--device_target=CPU",
            f"--dataset_path={images}", "--class_num=4", "--batch_size=8", "--epoch_size=2", "--lr_max=0.1",
            "--save_checkpoint_epochs=1", f"--save_checkpoint_path={out}/"]


def _vgg19(zoo, work, data, out):
    # as VGG16 (CIFAR-10 binary, amp O2 as its train.py sets), 32x32, batch 8, stopped after 8 steps
    root = os.path.join(work, "data")
    return ["train.py", "--config_path=cifar10_config.yaml", "--device_target=CPU",
            f"--data_dir={zoo_data.cifar10(root)[1]}", "--image_size=32,32", "--batch_size=8", "--max_epoch=1",
            "--warmup_epochs=0", f"--ckpt_path={out}/", "--ckpt_interval=1"]


def _edsr(zoo, work, data, out):
    # EDSR x2 on a DIV2K-layout tree (16 train / 2 valid PNG pairs, HR 96x96), shrunk by options
    # (--n_feats=32 --n_resblocks=4 --patch_size=48), float32 (--amp_level=O0; its config's O3 runs
    # float16 convolutions, minutes a step in MindSpore here); batch 4, 4 steps an epoch, 2 epochs
    # (its PSNR evaluation after the last). GeneratorDataset with 10 workers (an LD_PRELOAD count of 10)
    root = os.path.join(work, "data")
    _cpus8(data, "edsr", root, cpus=10)
    return ["train.py", "--config_path=DIV2K_config.yaml", "--device_target=CPU",
            f"--data_path={zoo_data.div2k(root)}", "--scale=2", "--n_feats=32", "--n_resblocks=4",
            "--patch_size=48", "--batch_size=4", "--epoch_size=2", "--amp_level=O0", "--save_epoch_frq=1",
            "--eval_epoch_frq=2", "--dataset_sink_mode=False", f"--ckpt_save_dir={out}/"]


MODELS.update({
    "efficientnet_b0": ("official/cv/Efficientnet/efficientnet-b0", _efficientnet_b0,
                        r"epoch: \d+ step: (\d+), loss is", "{folder}/ckpt_0/efficientnet_b0*.ckpt"),
    "mobilenetv1": ("official/cv/MobileNet/mobilenetv1", _mobilenetv1, r"epoch: \d+ step: \d+, loss is",
                    "mobilenetv1*.ckpt"),
    "vgg19": ("official/cv/VGG/vgg19", _vgg19, r"epoch: \d+ step: (\d+), loss", "*/ckpt_0/*.ckpt"),
    "edsr": ("official/cv/EDSR", _edsr, r"epoch: \d+ step: \d+, loss is", "EDSR_x2*.ckpt"),
})
MAX_STEPS.update({"efficientnet_b0": 16, "mobilenetv1": 0, "vgg19": 8, "edsr": 0})
LOAD_CHECK.update({"efficientnet_b0": None, "mobilenetv1": ("src.mobilenet_v1", "mobilenet_v1(class_num=4)"),
                   "vgg19": None, "edsr": None})


def _deeplabv3(zoo, work, data, out):
    # DeepLabV3 (ResNet-101, output stride 16) on its CPU path (float32, LossMonitor every step): 16
    # VOC-style JPEG/PNG pairs of 64x64, turned into one MindRecord file by the zoo's own
    # build_seg_data.py under msjax (MindSpore reads the same file); 65x65 crops, batch 2, 8 steps.
    # Its loader decodes with OpenCV (``pip_target`` on both sides); 4 map workers (LD_PRELOAD)
    root = os.path.join(work, "data")
    _cpus8(data, "deeplabv3", root)
    data.setdefault("pythonpath", {})["deeplabv3"] = zoo_data.pip_target(root, "opencv-python-headless==4.11.0.86")
    folder, lst = zoo_data.voc_segmentation(root)
    mindrecord = os.path.join(root, "voc_seg_mr", "voc_seg.mindrecord")
    if not os.path.exists(mindrecord):
        subprocess.run([sys.executable, "-m", "msjax", "run", "src/data/build_seg_data.py", f"--data_root={folder}",
                        f"--data_lst={lst}", f"--dst_path={mindrecord}", "--num_shards=1"],
                       cwd=os.path.join(zoo, "official/cv/DeepLabv3"), check=True,
                       env=dict(os.environ, PYTHONPATH=os.pathsep.join(
                           p for p in (data["pythonpath"]["deeplabv3"], os.environ.get("PYTHONPATH")) if p)))
    return ["train.py", "--device_target=CPU", f"--data_file={mindrecord}", "--batch_size=2", "--crop_size=65",
            "--train_epochs=1", "--base_lr=0.01", "--save_steps=8", f"--train_dir={out}", "--model=deeplab_v3_s16"]


MODELS["deeplabv3"] = ("official/cv/DeepLabv3", _deeplabv3, r"epoch: \d+ step: (\d+), loss is", "deeplab_v3_s16*.ckpt")
MAX_STEPS["deeplabv3"] = 0
LOAD_CHECK["deeplabv3"] = None


def _yolo_coco(name, *extra):
    # YOLOv3 (DarkNet53) / YOLOv4 (CSPDarknet53, its CPU config; it imports mindspore.profiler.profiling,
    # which MindSpore 2.10 no longer has: fails alike in both) on YOLOv5's COCO set in the 2014/2017
    # layout, fixed 160x160 input (--training_shape), batch 2, one epoch of 4 steps, a log line each
    # step, no pre-trained backbone; pycocotools and OpenCV from one pip folder on both sides, 8 workers
    def argv(zoo, work, data, out):
        root = os.path.join(work, "data")
        _cpus8(data, name, root)
        data.setdefault("pythonpath", {})[name] = zoo_data.pip_target(root, "pycocotools",
                                                                     "opencv-python-headless==4.11.0.86")
        return ["train.py", *extra, f"--data_dir={zoo_data.coco_train2017(root)}", "--per_batch_size=2",
                "--max_epoch=1", "--warmup_epochs=0", "--training_shape=160", "--log_interval=1",
                f"--output_path={out}", "--ckpt_path=outputs/"]
    argv.__name__ = f"_{name}"
    return argv


_yolov4 = _yolo_coco("yolov4", "--config_path=cpu_default_config.yaml", "--t_max=1")


MODELS["yolov4"] = ("official/cv/YOLOv4", _yolov4, r"epoch\[\d+\], iter\[(\d+)\]", "outputs/*/ckpt_0/*.ckpt")
MAX_STEPS["yolov4"] = 0
LOAD_CHECK["yolov4"] = None


_yolov3 = _yolo_coco("yolov3", "--device_target=CPU", "--is_distributed=0", "--pretrained_backbone=", "--T_max=1")


MODELS["yolov3"] = ("official/cv/YOLOv3", _yolov3, r"epoch\[\d+\], iter\[(\d+)\]", "outputs/*/ckpt_0/*.ckpt")
MAX_STEPS["yolov3"] = 0
LOAD_CHECK["yolov3"] = None


def _efficientnet_b1(zoo, work, data, out):
    # EfficientNet-B1 from the same folder (its ImageNet config, CPU platform, float32): 32 JPEG
    # pictures in 4 classes as 64x64 crops (--resize_value), batch 8, one epoch of 4 steps
    root = _efficientnet_env(data, "efficientnet_b1", work)
    images = zoo_data.image_folder(root, per_class=8, size=64, name="imagefolder_32")
    if not os.path.lexists(os.path.join(images, "val")):    # its validation set: <data_path>/val
        os.symlink(os.path.join(images, "eval"), os.path.join(images, "val"))
    return ["train.py", "--config_path=efficientnet_b1_imagenet_config.yaml", "--platform=CPU",
            f"--data_path={images}", "--resize_value=64", "--num_classes=4", "--batch_size=8", "--epochs=1",
            "--warmup_epochs=0", "--lr=0.01"]


def _unet_nested(zoo, work, data, out):
    # UNet++ (NestedUNet, deconvolutions, no deep supervision) on its Cell_nuclei config: amp O3 as
    # train.py picks off GPU, 96x96 as configured; 12 image/mask pairs in the layout its
    # preprocess_dataset.py leaves (<id>/image.png, <id>/mask.png), split 0.8: 9 train, batch 3,
    # 3 epochs (its monitor prints once an epoch in sink mode). OpenCV and numpy_alias_shim on both sides
    root = os.path.join(work, "data")
    data.setdefault("pythonpath", {})["unet_nested"] = os.pathsep.join((   # and np.int for its loader, as Unet's
        zoo_data.pip_target(root, "opencv-python-headless==4.11.0.86"), zoo_data.numpy_alias_shim(root)))
    return ["train.py", "--config_path=unet_nested_cell_config.yaml", "--device_target=CPU",
            f"--data_path={zoo_data.cell_nuclei(root)}", "--epochs=3", "--repeat=1", "--batch_size=3",
            "--run_eval=False", f"--output_path={out}"]


MODELS.update({
    "efficientnet_b1": ("official/cv/Efficientnet/efficientnet-b0", _efficientnet_b1,
                        r"epoch: \d+ step: (\d+), loss is", "{folder}/ckpt_0/efficientnet_b1*.ckpt"),
    "unet_nested": ("official/cv/Unet", _unet_nested, r"^epoch:\s+(\d+), avg loss", "checkpoint/ckpt_0/*.ckpt"),
})
MAX_STEPS.update({"efficientnet_b1": 0, "unet_nested": 0})
LOAD_CHECK.update({"efficientnet_b1": None, "unet_nested": None})
LOSS_RE["unet_nested"] = r"avg loss:(-?\d+\.\d+)"


# Round 5 (issue 36, the strict count): MobileNetV3-Large on its CPU path (train.py --device_target=CPU:
# config_cpu, no options to shrink it: CIFAR-10 binary resized to 224x224, batch 32, 10 classes, label
# smoothing 0.1, Momentum with a fixed loss scale of 1024, 120 epochs; stopped by MAX_STEPS). The
# synthetic CIFAR-10 file (10,000 records, the least both readers take): 312 steps an epoch, so no
# checkpoint (one an epoch) within the cap. 8 workers (LD_PRELOAD); easydict on both sides. It would
# save to ./checkpointckpt_/ (its path joined without a slash) under the script's folder in both
# frameworks: what an earlier invocation left there is removed before the first run.
def _mobilenetv3(zoo, work, data, out):
    import shutil
    root = os.path.join(work, "data")
    _cpus8(data, "mobilenetv3", root)
    if "mobilenetv3" not in data.setdefault("pythonpath", {}):   # first run of this invocation
        shutil.rmtree(os.path.join(zoo, "official/cv/MobileNet/mobilenetv3/checkpointckpt_"), ignore_errors=True)
    data["pythonpath"]["mobilenetv3"] = zoo_data.pip_target(root, "easydict")   # src/config.py
    return ["train.py", "--device_target=CPU", f"--dataset_path={zoo_data.cifar10(root)[0]}"]


MODELS["mobilenetv3"] = ("official/cv/MobileNet/mobilenetv3", _mobilenetv3, r"^epoch: \[\s*\d+/\s*\d+\], step:\[",
                         "{folder}/checkpointckpt_/mobilenetV3*.ckpt")
MAX_STEPS["mobilenetv3"] = 9
LOAD_CHECK["mobilenetv3"] = ("src.mobilenetV3", "mobilenet_v3_large(num_classes=10)")
LOSS_RE["mobilenetv3"] = r"loss:\[\s*(-?\d+\.\d+)/"
