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

import zoo_data

MODELS, MAX_STEPS, LOAD_CHECK, LOSS_RE = {}, {}, {}, {}


def _cpus8(data, name, root):
    data.setdefault("env", {})[name] = {"LD_PRELOAD": zoo_data.cpu_count_preload(root)}


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


MODELS["deepfm"] = ("official/recommend/DeepFM", _deepfm, r"epoch: \d+ step: (\d+), loss is", "deepfm*.ckpt")
MAX_STEPS["deepfm"] = 0
LOAD_CHECK["deepfm"] = None
