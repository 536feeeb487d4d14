"""Run official models of MindSpore's model zoo unmodified, under msjax and MindSpore 2.10.

    python bench/zoo/run_zoo.py /path/to/models [--work /tmp/zoo_work] [--models resnet18 vgg16 ...]
        [--ms-python /tmp/ms/bin/python] [--runs 1] [--frameworks msjax mindspore]
        [--max-steps N] [--timeout S] [--msjax-pythonpath DIRS]

``/path/to/models`` is a checkout of ``mindspore-ai/models`` (e.g.
``git --git-dir=<mirror> archive HEAD official | tar -x -C /tmp/zoo``). Nothing of the
zoo is copied or changed: each script runs in its own folder, with command-line options
and, where an option is a list the zoo's argparse helper cannot take (image sizes, bucket
lists), a copy of its yaml config with those keys changed, written under ``--work``.

msjax runs as ``python -m msjax run <script>`` (``sys.executable``), MindSpore as
``--ms-python <script>``, back to back. Every stdout line is timestamped as it arrives;
the model's own step lines (its callbacks' output, a regex per model) give the step
numbers, and steps/s is (last step - first step) / (time between those lines), so start-up
and the first step's compilation are left out. ``--max-steps`` stops a run after that many
steps (MindSpore on CPU needs minutes for an epoch). After an msjax run that saved a
checkpoint, MindSpore loads it (``load_checkpoint`` + ``load_param_into_net`` into the
model's own network class where the zoo's ``src`` builds it; see ``LOAD_CHECK``).

The LSTM's package imports ``gensim`` (for its preprocessing only): an empty stand-in module goes on
both sides' ``PYTHONPATH``. ``--msjax-pythonpath`` is put in front of ``PYTHONPATH`` for the msjax runs only: a folder with
the zoo's own requirements (PointNet imports ``plyfile`` and ``tqdm``) and, for WGAN, NumPy < 2.4
(``pip install --target DIR 'numpy<2.4' plyfile tqdm``). WGAN prints its (1,)-shaped losses with
``'%f' % loss.asnumpy()``, which NumPy 2.4 refuses (``TypeError: only 0-dimensional arrays can be
converted to Python scalars``); MindSpore 2.10's NumPy 1.26 only warns.

Prints one JSON line per run and a summary table (medians) at the end; writes
``<work>/results.json``. Not run in CI.
"""
import argparse
import glob
import json
import os
import re
import statistics
import subprocess
import sys
import threading
import time

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, _HERE)
import zoo_data  # noqa: E402


def patched_yaml(src, dst, overrides, block=None):
    """Copy a zoo yaml config, replacing the top-level ``key: value`` lines named in
    ``overrides`` (values written as given), or with ``block``, the indented ones of that
    top-level mapping (network configurations nested in the yaml, which no option reaches)."""
    text = open(src).read()
    head, tail = "", ""
    if block:
        start = re.search(rf"^{re.escape(block)}:\s*$", text, flags=re.M)
        if not start:
            raise KeyError(f"{block} not in {src}")
        head, text = text[:start.end()], text[start.end():]
        end = re.search(r"^\S", text, flags=re.M)
        if end:
            text, tail = text[:end.start()], text[end.start():]
    for key, value in overrides.items():
        indent = r"(\s+)" if block else "()"
        text, n = re.subn(rf"^{indent}{re.escape(key)}:.*$", rf"\g<1>{key}: {value}", text, count=1, flags=re.M)
        if n != 1:
            raise KeyError(f"{key} not in {src}")
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    with open(dst, "w") as f:
        f.write(head + text + tail)
    return dst


# Each model: folder in the zoo, script, a function (work dir, data dir, output dir) ->
# argv, the regex of its step lines (group 1: the step number within the run), and the
# glob of the checkpoint it writes (under the run's output folder; ``{folder}``: the script's folder).
def _resnet(zoo, work, data, out):
    return ["train.py", "--config_path=config/resnet18_cifar10_config.yaml", "--device_target=CPU",
            "--epoch_size=1", "--train_image_size=32", "--eval_image_size=32",
            f"--data_path={data['cifar_resnet']}", f"--output_dir={out}", "--save_checkpoint_epochs=1"]


def _mobilenetv2(zoo, work, data, out):
    return ["train.py", "--config_path=default_config_cpu.yaml", f"--dataset_path={data['imagefolder']}",
            "--num_classes=4", "--batch_size=16", "--image_height=32", "--image_width=32", "--epoch_size=1",
            "--num_workers=2", f"--save_checkpoint_path={out}/"]


def _vgg16(zoo, work, data, out):
    cfg = patched_yaml(os.path.join(zoo, "official/cv/VGG/vgg16/cifar10_config.yaml"),
                       os.path.join(work, "configs", "vgg16_cifar10_32.yaml"), {"image_size": "[32,32]"})
    return ["train.py", f"--config_path={cfg}", "--device_target=CPU", f"--data_dir={data['cifar_vgg']}",
            "--max_epoch=1", "--warmup_epochs=0", f"--ckpt_path={out}/", "--ckpt_interval=1"]


def _transformer_cfg(zoo, work):
    return patched_yaml(os.path.join(zoo, "official/nlp/Transformer/default_config.yaml"),
                        os.path.join(work, "configs", "transformer_small.yaml"),
                        {"bucket_boundaries": "[16]", "bucket": "[16]"})


def _transformer(zoo, work, data, out):
    return ["train.py", f"--config_path={_transformer_cfg(zoo, work)}", "--device_target=CPU",
            f"--data_path={data['transformer_mr'][FRAMEWORK[0]]}", "--batch_size=16", "--epoch_size=1",
            f"--vocab_size={data['vocab_size']}", "--hidden_size=64", "--num_hidden_layers=2",
            "--num_attention_heads=4", "--intermediate_size=128", "--max_position_embeddings=32",
            "--seq_length=16", f"--save_checkpoint_path={out}/", "--enable_modelarts=False"]


def _wgan(zoo, work, data, out):
    return ["train.py", "--device_target=CPU", "--dataset=lsun", f"--dataroot={data['imagefolder']}/train",
            "--workers=2", "--batchSize=16", "--imageSize=16", "--nz=16", "--ngf=16", "--ndf=16", "--niter=12",
            f"--experiment={out}"]


def _pointnet(zoo, work, data, out):
    return ["train.py", "--device_target=CPU", "--batchSize=2", "--nepoch=1", f"--data_url={data['shapenet']}",
            f"--train_url={out}"]


def _lstm(zoo, work, data, out):
    return ["train.py", "--preprocess=false", f"--preprocess_path={data['imdb']}", "--embed_size=16",
            "--num_hiddens=16", "--batch_size=8", "--num_epochs=1", f"--ckpt_path={out}",
            "--save_checkpoint_steps=16"]


MODELS = {
    "resnet18": ("official/cv/ResNet", _resnet, r"step: \[(\d+)/\d+\]", "resnet18/cifar10/ckpt/*.ckpt"),
    "mobilenetv2": ("official/cv/MobileNet/mobilenetv2", _mobilenetv2, r"step:\[\s*(\d+)/", "ckpt_0/*.ckpt"),
    "vgg16": ("official/cv/VGG/vgg16", _vgg16, r"epoch: \d+ step: (\d+), loss", "*/ckpt_0/*.ckpt"),
    "transformer": ("official/nlp/Transformer", _transformer, r"epoch: \d+, step: (\d+), outputs", "ckpt_0/*.ckpt"),
    # one line per generator step (after Diters=100 critic steps, or the epoch's 8 batches here)
    "wgan": ("official/cv/WGAN", _wgan, r"\]\[(\d+)\] Loss_D", "netG_epoch_*.ckpt"),
    "pointnet": ("official/cv/PointNet", _pointnet, r"episode : (\d+)/", "pointnet_network_epoch_*.ckpt"),
    # MindDataset(num_parallel_workers=4) in its src/dataset.py: needs 4 cores (see the README)
    "lstm": ("official/nlp/LSTM", _lstm, r"epoch: \d+ step: (\d+), loss is", "lstm_best_acc.ckpt"),
}
# Step lines after which a run stops unless --max-steps says otherwise (0: the whole epoch).
# ResNet logs every 10th step; the CIFAR-10 models have 10,000 records an epoch (MindSpore's
# Cifar10Dataset reads whole 10,000-record files), minutes per epoch even for msjax here.
MAX_STEPS = {"resnet18": 4, "vgg16": 8, "mobilenetv2": 0, "transformer": 0, "wgan": 0, "pointnet": 0, "lstm": 0}

# Loading the msjax checkpoint in MindSpore: (module in the zoo folder, expression building the
# network from ``config``-free arguments) or None for load_checkpoint alone.
LOAD_CHECK = {
    "resnet18": ("src.resnet", "resnet18(class_num=10)"),
    "mobilenetv2": None,
    "vgg16": None,
    "transformer": None,
    "wgan": None,   # its names carry the train cells' prefix (net.netG.main.0.weight), in MindSpore too
    "pointnet": ("src.network", "PointNetDenseCls(k=4, feature_transform=False)"),
    "lstm": ("src.lstm", "SentimentNet(200, 16, 16, 2, True, 2, 'normal', 8)"),
}

FRAMEWORK = ["msjax"]   # the framework of the run being set up (the Transformer's data differ)

# The loss on a model's log lines (group 1). The default reads LossMonitor's "loss is 2.3",
# "loss: 2.3", "loss:[2.3/2.1]", "Loss_D: -0.1" (not a printed config's "loss_scale: 1.0").
DEFAULT_LOSS_RE = r"(?i)\bloss(?:_[dg])?(?: is)?[\s:=\[(]*(-?\d+\.\d+(?:e[-+]?\d+)?)"
LOSS_RE = {"transformer": r"outputs are \(Tensor\(shape=\[\w*\], dtype=Float32, value=\s*\[?\s*(-?\d+\.\d+)"}


# More official models. The ImageNet-style ones read a small ImageFolder tree (``imagefolder_320``:
# 4 classes x 80 JPEG images of 40x40), so that an epoch, and the checkpoint at its end, is cheap.
def _resnet_imagenet(config, net_name, *extra):
    def argv(zoo, work, data, out):
        return ["train.py", f"--config_path=config/{config}", "--device_target=CPU", "--epoch_size=1",
                *extra, "--train_image_size=32", "--eval_image_size=32", "--class_num=4",
                "--batch_size=8", "--warmup_epochs=0", f"--data_path={data['imagefolder_320']}/train",
                f"--output_dir={out}", "--save_checkpoint_epochs=1"]
    argv.__name__ = f"_{net_name}"
    return argv


# train.py divides lr_max by 8 (devices): 0.1 a step, decaying linearly to 0.01 over the epoch
# (ResNet-101 takes --lr, cosine from 0.02)
_RESNET_LR = ("--lr_max=0.8", "--lr_decay_mode=linear", "--lr_end=0.01")

MODELS.update({
    "resnet50": ("official/cv/ResNet", _resnet_imagenet("resnet50_imagenet2012_config.yaml", "resnet50", *_RESNET_LR),
                 r"step: \[(\d+)/\d+\]", "resnet50/imagenet2012/ckpt/*.ckpt"),
    "resnet34": ("official/cv/ResNet", _resnet_imagenet("resnet34_cpu_config.yaml", "resnet34", *_RESNET_LR),
                 r"step: \[(\d+)/\d+\]", "resnet34/flower_photos/ckpt/*.ckpt"),
    "se_resnet50": ("official/cv/ResNet", _resnet_imagenet("se-resnet50_imagenet2012_config.yaml", "se_resnet50",
                                                                    "--train_epoch_size=1", *_RESNET_LR),
                    r"step: \[(\d+)/\d+\]", "se-resnet50/imagenet2012/ckpt/*.ckpt"),
    "resnet101": ("official/cv/ResNet", _resnet_imagenet("resnet101_imagenet2012_config.yaml", "resnet101", "--lr=0.02"),
                  r"step: \[(\d+)/\d+\]", "resnet101/imagenet2012/ckpt/*.ckpt"),
    "resnet152": ("official/cv/ResNet", _resnet_imagenet("resnet152_imagenet2012_config.yaml", "resnet152", *_RESNET_LR),
                  r"step: \[(\d+)/\d+\]", "resnet152/imagenet2012/ckpt/*.ckpt"),
})
MAX_STEPS.update({"resnet50": 0, "resnet34": 0, "se_resnet50": 0, "resnet101": 0, "resnet152": 0})
LOAD_CHECK.update({
    "resnet50": ("src.resnet", "resnet50(class_num=4)"),
    "resnet34": ("src.resnet", "resnet34(class_num=4)"),
    "se_resnet50": ("src.resnet", "se_resnet50(class_num=4)"),
    "resnet101": ("src.resnet", "resnet101(class_num=4)"),
    "resnet152": ("src.resnet", "resnet152(class_num=4)"),
})


def _cyclegan(zoo, work, data, out):
    return ["train.py", "--platform=CPU", f"--dataroot={data['cyclegan']}", "--image_size=32", "--ngf=16",
            "--ndf=16", "--gl_num=2", "--max_epoch=1", "--n_epochs=1", "--print_iter=4", "--save_checkpoint_epochs=1",
            f"--outputs_dir={out}"]


BERT_NET = {"seq_length": 32, "vocab_size": 100, "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4,
            "intermediate_size": 128, "max_position_embeddings": 64, "compute_type": "mstype.float32"}


def _bert_cfg(zoo, work, task="classifier"):
    # BERT-base's network (bert_net_cfg, nested in the yaml: no command-line option reaches it)
    # shrunk to 2 layers of width 64 over a 100-word vocabulary, in float32; AdamWeightDecay's
    # learning rate (the first under optimizer_cfg) 2e-5 -> 1e-3 for a network trained from scratch
    # (SQuAD has no CPU yaml: its task_squad_config.yaml, float16 there, float32 here as on the CPU ones)
    dst = os.path.join(work, "configs", f"bert_tiny_{task}_cpu.yaml")
    src = f"task_{task}_config.yaml" if task == "squad" else f"task_{task}_cpu_config.yaml"
    patched_yaml(os.path.join(zoo, "official/nlp/Bert", src), dst, BERT_NET, "bert_net_cfg")
    return patched_yaml(dst, dst, {"learning_rate": "0.001"}, "optimizer_cfg")


def _bert(zoo, work, data, out):
    # fine-tunes from data["bert_ckpt"] (the zoo's BertCLS, initialised, saved by msjax; see
    # prepare_more_data); dataset_sink_mode=True on the CPU runs step by step in both frameworks
    return ["run_classifier.py", f"--config_path={_bert_cfg(zoo, work)}", "--device_target=CPU", "--do_train=true",
            "--do_eval=false", "--epoch_num=8", "--num_class=2", "--train_batch_size=8",
            f"--load_pretrain_checkpoint_path={data['bert_ckpt']}", f"--train_data_file_path={data['bert']}",
            f"--save_finetune_checkpoint_path={out}"]


def _inceptionv3(zoo, work, data, out):
    # 299x299 crops (fixed in its src/dataset.py) of 32 images, 4 steps an epoch; LossMonitor prints
    # once an epoch (the step regex reads the epoch: steps/s = 4 x epochs/s). --loss_scale=1: off the
    # Ascend path no loss-scale manager undoes RMSProp's loss_scale=1024 gradient division
    return ["train.py", "--config_path=default_config_cpu.yaml", "--platform=CPU", "--ds_type=imagenet",
            f"--dataset_path={data['imagefolder_32']}/train", "--num_classes=4", "--batch_size=8", "--epoch_size=3",
            "--work_nums=2", "--warmup_epochs=0", "--lr_max=0.01", "--loss_scale=1", f"--ckpt_path={out}"]


def _gcn(zoo, work, data, out):
    # reads its graph with mindspore.dataset.GraphData, which MindSpore 2.10 no longer has (msjax has it:
    # dataset/graph.py); train.py imports sklearn and matplotlib (--msjax-pythonpath)
    return ["train.py", "--device_target=CPU", f"--data_dir={data['graph']}", "--train_nodes_num=40",
            "--eval_nodes_num=20", "--test_nodes_num=20", f"--save_ckptpath={out}/"]


def _unet(zoo, work, data, out):
    # The O3 config CPU runs (train.py: amp_level O3 off GPU), UNetMedical on 512x512 ISBI stacks
    # (its augmentation crops at fixed 572-pixel coordinates, so smaller images come out empty, in
    # MindSpore too); 5 images: 4 train, 2 steps of 2. Its data loader uses np.int, removed in
    # NumPy 1.24 (before MindSpore 2.10's 1.26): a sitecustomize restores the alias on both sides.
    isbi = zoo_data.isbi_tiff(os.path.join(work, "data", "isbi512"), images=5, size=512)
    data.setdefault("pythonpath", {})["unet"] = os.pathsep.join((   # and OpenCV on both sides, as UNet++'s
        zoo_data.pip_target(os.path.join(work, "data"), "opencv-python-headless==4.11.0.86"),
        zoo_data.numpy_alias_shim(os.path.join(work, "data"))))
    return ["train.py", "--config_path=unet_medical_config.yaml", "--device_target=CPU", f"--data_path={isbi}",
            "--epochs=1", "--repeat=1", "--batch_size=2", f"--output_path={out}"]


def _ssd(zoo, work, data, out):
    # SSD300 (MobileNetV2 backbone) on its "other" dataset layout; train.py writes the MindRecord
    # itself, each framework its own (--mindrecord_dir under --work). Stops in MindSpore 2.10 as in
    # msjax: its loss calls ops.Less()(0, gt_label), which 2.10's Less refuses (input must be a Tensor)
    images, anno = data["detection"]
    return ["train.py", "--config_path=config/ssd300_config.yaml", "--device_target=CPU", "--dataset=other",
            f"--image_dir={images}", f"--anno_path={anno}", f"--data_path={work}",
            f"--mindrecord_dir=ssd_mindrecord_{FRAMEWORK[0]}", "--batch_size=4", "--epoch_size=2",
            "--warmup_epochs=0", "--save_checkpoint_epochs=1", f"--output_path={out}"]


def _inceptionv4(zoo, work, data, out):
    # as Inception-v3 (299x299, 32 images, a loss line an epoch); its ModelCheckpoint writes
    # ./ckpts_rank_0 under the script's folder, in both frameworks
    # (its train.py appends train/ to --dataset_path)
    return ["train.py", "--config_path=default_config_cpu.yaml", f"--dataset_path={data['imagefolder_32']}",
            "--num_classes=4", "--batch_size=8", "--epoch_size=3", "--work_nums=2", "--warmup_epochs=0",
            "--lr_max=0.01", "--save_checkpoint_epochs=1"]


def _bert_ner(zoo, work, data, out):
    # token classification with the CRF head (BertNER, use_crf), from the same initial checkpoint
    return ["run_ner.py", f"--config_path={_bert_cfg(zoo, work, 'ner')}", "--device_target=CPU", "--do_train=true",
            "--do_eval=false", "--use_crf=true", "--epoch_num=8", "--train_batch_size=8",
            f"--label_file_path={data['bert_ner'][1]}", f"--load_pretrain_checkpoint_path={data['bert_ckpt']}",
            f"--train_data_file_path={data['bert_ner'][0]}", f"--save_finetune_checkpoint_path={out}"]


def _bert_squad(zoo, work, data, out):
    # span prediction (BertSquad) from the same initial checkpoint, 8 epochs of 16 steps
    return ["run_squad.py", f"--config_path={_bert_cfg(zoo, work, 'squad')}", "--device_target=CPU",
            "--do_train=true", "--do_eval=false", "--epoch_num=8", "--train_batch_size=8",
            f"--load_pretrain_checkpoint_path={data['bert_ckpt']}", f"--train_data_file_path={data['bert_squad']}",
            f"--save_finetune_checkpoint_path={out}"]


MODELS.update({
    "bert_squad": ("official/nlp/Bert", _bert_squad, r"current epoch percent: [\d.]+, step: (\d+), outputs are",
                   "squad*.ckpt"),
    "bert_ner_crf": ("official/nlp/Bert", _bert_ner, r"current epoch percent: [\d.]+, step: (\d+), outputs are",
                     "ner*.ckpt"),
    "inceptionv4": ("official/cv/Inception/inceptionv4", _inceptionv4, r"epoch: (\d+) step: \d+, loss is",
                    "{folder}/ckpts_rank_0/*.ckpt"),
    "ssd300": ("official/cv/SSD", _ssd, r"epoch: \d+ step: (\d+), loss is", "ckpt_0/*.ckpt"),
    "gcn": ("official/gnn/GCN", _gcn, r"Epoch: (\d+) train_loss=", "gcn.ckpt"),
    "unet": ("official/cv/Unet", _unet, r"^step: (\d+), loss is", "checkpoint/ckpt_0/*.ckpt"),
    "inceptionv3": ("official/cv/Inception/inceptionv3", _inceptionv3, r"epoch: (\d+) step: \d+, loss is",
                    "ckpt_0/*.ckpt"),
    "bert_tiny": ("official/nlp/Bert", _bert, r"current epoch percent: [\d.]+, step: (\d+), outputs are",
                  "classifier*.ckpt"),
    "cyclegan": ("official/cv/CycleGAN", _cyclegan, r"Epoch\[\d+\] \[(\d+)/\d+\] step cost", "ckpt/G_A_*.ckpt"),
})
MAX_STEPS.update({"bert_squad": 0, "cyclegan": 0, "bert_tiny": 0, "inceptionv3": 0, "gcn": 0, "unet": 0, "ssd300": 0, "inceptionv4": 0,
                  "bert_ner_crf": 0})
LOAD_CHECK.update({"bert_squad": None, "cyclegan": None, "bert_tiny": None,
                   "gcn": ("src.gcn", "GCN(__import__('src.config', fromlist=['ConfigGCN']).ConfigGCN(), 16, 4)"), "ssd300": None,
                   "unet": ("src.unet_medical", "UNetMedical(n_channels=1, n_classes=2)"),
                   "inceptionv4": ("src.inceptionv4", "Inceptionv4(classes=4)"), "bert_ner_crf": None,
                   "inceptionv3": ("src.inception_v3", "InceptionV3(num_classes=4, has_bias=False)")})
LOSS_RE.update({"bert_squad": r"outputs are \(?(?:Tensor\(shape=\[\w*\], dtype=Float32, value=\s*)?\[?\s*(-?\d+\.\d+)",
                "gcn": r"train_loss= (-?\d+\.\d+)", "cyclegan": r"G_loss: (-?\d+\.\d+)", "bert_ner_crf": r"outputs are \(?(?:Tensor\(shape=\[\w*\], dtype=Float32, value=\s*)?\[?\s*(-?\d+\.\d+)",
                "bert_tiny": r"outputs are \(?(?:Tensor\(shape=\[\w*\], dtype=Float32, value=\s*)?\[?\s*(-?\d+\.\d+)"})


def prepare_more_data(data, root, models, zoo=None, work=None):
    """The data of the models added by ``MODELS.update`` above."""
    if {"resnet50", "resnet34", "se_resnet50", "resnet101", "resnet152"} & set(models):
        data["imagefolder_320"] = zoo_data.image_folder(root, per_class=80, size=40, name="imagefolder_320")
    if "bert_ner_crf" in models:
        data["bert_ner"] = zoo_data.bert_ner_mindrecord(root, vocab=BERT_NET["vocab_size"], seq=BERT_NET["seq_length"])
    if "bert_squad" in models:
        data["bert_squad"] = zoo_data.bert_squad_mindrecord(root, vocab=BERT_NET["vocab_size"], seq=BERT_NET["seq_length"])
    if {"bert_tiny", "bert_ner_crf", "bert_squad"} & set(models):
        data["bert"] = zoo_data.bert_classification_mindrecord(root, vocab=BERT_NET["vocab_size"],
                                                               seq=BERT_NET["seq_length"])
        data["bert_ckpt"] = os.path.join(root, "bert_backbone_init.ckpt")
        if not os.path.exists(data["bert_ckpt"]):
            # the "pre-trained" checkpoint the fine-tuning scripts insist on: the backbone (bert.bert.*) of
            # the zoo's own BertCLS, freshly initialised (a task head of another shape would not load)
            code = ("import os, sys; sys.path.insert(0, os.getcwd()); import mindspore as ms\n"
                    "from src.bert_for_finetune import BertCLS\nfrom src.model_utils.config import bert_net_cfg\n"
                    "net = BertCLS(bert_net_cfg, False, num_labels=2)\n"
                    "ms.save_checkpoint([{'name': p.name, 'data': p} for p in net.get_parameters()\n"
                    f"                    if p.name.startswith('bert.bert.')], {data['bert_ckpt']!r})\n")
            script = os.path.join(root, "bert_init.py")
            with open(script, "w") as f:
                f.write(code)
            subprocess.run([sys.executable, "-m", "msjax", "run", script, f"--config_path={_bert_cfg(zoo, work)}"],
                           cwd=os.path.join(zoo, "official/nlp/Bert"), check=True)
    if {"inceptionv3", "inceptionv4"} & set(models):
        data["imagefolder_32"] = zoo_data.image_folder(root, per_class=8, size=64, name="imagefolder_32")
    if "ssd300" in models:
        data["detection"] = zoo_data.detection_folder(root)
    if "gcn" in models:
        data["graph"] = zoo_data.graph_mindrecord(root)
    if "unet" in models:
        data["isbi"] = zoo_data.isbi_tiff(root)
    if "cyclegan" in models:
        data["cyclegan"] = zoo_data.unpaired_images(root)


def prepare_data(zoo, work, ms_python, models):
    data = {}
    root = os.path.join(work, "data")
    if {"resnet18", "vgg16"} & set(models):
        data["cifar_resnet"], data["cifar_vgg"] = zoo_data.cifar10(root)
    if {"mobilenetv2", "wgan"} & set(models):
        data["imagefolder"] = zoo_data.image_folder(root)
    if "pointnet" in models:
        data["shapenet"] = zoo_data.shapenet_part(root)
    if "lstm" in models:
        data["imdb"] = zoo_data.imdb_mindrecord(root)
        data["pythonpath"] = {"lstm": zoo_data.gensim_stub(root)}
        # MindDataset(num_parallel_workers=4): MindSpore's C++ check on 2 cores (both sides alike)
        data.setdefault("env", {})["lstm"] = {"LD_PRELOAD": zoo_data.cpu_count_preload(root)}
    if "transformer" in models:
        text, vocab, size = zoo_data.parallel_corpus(root)
        data["vocab_size"] = size
        data["transformer_mr"] = {}
        folder = os.path.join(zoo, "official/nlp/Transformer")
        cfg = _transformer_cfg(zoo, work)
        # the zoo's own create_data.py writes the MindRecord files, under each framework
        for fw, cmd in (("msjax", [sys.executable, "-m", "msjax", "run"]), ("mindspore", [ms_python])):
            out = os.path.join(root, f"transformer_mr_{fw}")
            os.makedirs(out, exist_ok=True)
            prefix = os.path.join(out, "train-mindrecord")
            if not os.path.exists(prefix + "_16_00"):
                subprocess.run(cmd + ["create_data.py", f"--config_path={cfg}", f"--input_file={text}",
                                      f"--vocab_file={vocab}", f"--output_file={prefix}", "--max_seq_length=16",
                                      "--num_splits=16"], cwd=folder, check=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            data["transformer_mr"][fw] = prefix
    prepare_more_data(data, root, models, zoo, work)
    return data


def run_one(cmd, cwd, step_re, max_steps, timeout, log_path, pythonpath=None, loss_re=None, env_extra=None):
    """Run ``cmd``, timestamp its step lines; stop after ``max_steps`` steps. The losses
    (``loss_re``, group 1, on any line) are kept: first, last, and whether the mean of the
    second half is below that of the first. ``env_extra``: more environment variables
    (``data["env"][model]``, such as ``zoo_data.cpu_count_preload``'s ``LD_PRELOAD``)."""
    env = dict(os.environ, PYTHONUNBUFFERED="1", GLOG_v="3", **(env_extra or {}))
    if pythonpath:
        env["PYTHONPATH"] = os.pathsep.join(p for p in (pythonpath, env.get("PYTHONPATH")) if p)
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, start_new_session=True)
    timer = threading.Timer(timeout, proc.kill)
    timer.start()
    steps, stopped, losses = [], False, []
    with open(log_path, "w", buffering=1) as log:   # line-buffered: a run can be watched
        for line in proc.stdout:
            now = time.monotonic() - t0
            log.write(f"[{now:9.3f}] {line}")
            lm = re.search(loss_re or DEFAULT_LOSS_RE, line)
            if lm:
                losses.append(float(lm.group(1)))
            m = re.search(step_re, line)
            if m:
                steps.append((int(m.group(1)) if m.groups() else len(steps) + 1, now))   # no group: count
                if max_steps and len(steps) >= max_steps:
                    stopped = True
                    proc.kill()
                    break
    rc = proc.wait()
    timer.cancel()
    result = {"rc": None if stopped else rc, "wall_s": round(time.monotonic() - t0, 1),
              "steps_seen": len(steps), "stopped_after_max_steps": stopped}
    if len(steps) >= 2:
        (s0, t_0), (s1, t_1) = steps[0], steps[-1]
        if t_1 > t_0 and s1 > s0:
            result["steps_per_s"] = round((s1 - s0) / (t_1 - t_0), 3)
    result["first_step_s"] = round(steps[0][1], 1) if steps else None
    if losses:
        half = len(losses) // 2
        result.update(losses_seen=len(losses), loss_first=losses[0], loss_last=losses[-1])
        if half:
            result["loss_falling"] = statistics.mean(losses[-half:]) < statistics.mean(losses[:half])
    return result


def check_load(ms_python, folder, ckpt, spec, pythonpath=None):
    """MindSpore 2.10 loads msjax's checkpoint (and into the zoo's network, where given). ``spec``
    a path to a script: MindSpore runs it with the checkpoint (it prints ``not loaded [...]``)."""
    if isinstance(spec, str):
        env = dict(os.environ, GLOG_v="3")
        if pythonpath:
            env["PYTHONPATH"] = os.pathsep.join(p for p in (pythonpath, env.get("PYTHONPATH")) if p)
        r = subprocess.run([ms_python, spec, ckpt], cwd=folder, capture_output=True, text=True, env=env)
        return {"loads_in_mindspore": r.returncode == 0 and "not loaded []" in r.stdout,
                "detail": "\n".join(r.stdout.strip().splitlines()[-3:]) or r.stderr.strip()[-300:]}
    code = ["import mindspore as ms", f"p = ms.load_checkpoint({ckpt!r})", "print('params', len(p))"]
    if spec:
        mod, expr = spec
        code += [f"from {mod} import *", f"net = {expr}",
                 "left, _ = ms.load_param_into_net(net, p, strict_load=True)",
                 "print('not loaded', left)"]
    env = dict(os.environ, GLOG_v="3")
    if pythonpath:
        env["PYTHONPATH"] = os.pathsep.join(p for p in (pythonpath, env.get("PYTHONPATH")) if p)
    r = subprocess.run([ms_python, "-c", "\n".join(code)], cwd=folder, capture_output=True, text=True, env=env)
    ok = r.returncode == 0 and ("not loaded []" in r.stdout if spec else True)
    return {"loads_in_mindspore": ok, "detail": (r.stdout.strip() or r.stderr.strip()[-300:])}


def same_layout(ms_python, a, b):
    """Both checkpoints (read by MindSpore) hold the same parameter names, shapes and dtypes."""
    code = ("import sys, mindspore as ms\n"
            "f = lambda p: {k: (tuple(v.shape), str(v.dtype)) for k, v in ms.load_checkpoint(p).items()}\n"
            "a, b = f(sys.argv[1]), f(sys.argv[2])\n"
            "print(a == b, sorted(set(a) ^ set(b))[:8], [k for k in a if k in b and a[k] != b[k]][:8])")
    r = subprocess.run([ms_python, "-c", code, a, b], capture_output=True, text=True, env=dict(os.environ, GLOG_v="3"))
    return r.stdout.strip() or r.stderr.strip()[-300:]


# CRNN (its V2 network: the CPU branch, nn.LSTM, ops.CTCLoss). Its CRNNMonitor prints every step
# (per_print_time=1) but numbers them by epoch, so its step lines are counted (a regex without a
# group). Its data: the ``synth`` layout; its ``src.metric`` imports python-Levenshtein (a Python
# stand-in). It maps with num_parallel_workers=8, which both frameworks refuse on fewer cores:
# ``cpu_count_shim`` lifts the Python check, enough for msjax; MindSpore's C++ pipeline checks the
# hardware threads again, so on fewer than 8 cores MindSpore stops before its first step.
def _crnn(zoo, work, data, out):
    root = os.path.join(work, "data")
    data.setdefault("pythonpath", {})["crnn"] = os.pathsep.join(
        (zoo_data.levenshtein_module(root), zoo_data.cpu_count_shim(root)))
    return ["train.py", "--device_target=CPU", "--model_version=V2", "--train_dataset=synth",
            f"--train_dataset_path={zoo_data.crnn_synth(root)}", "--batch_size=8", "--epoch_size=2",
            "--per_print_time=1", "--save_checkpoint_steps=8", f"--output_dir={out}"]


MODELS["crnn"] = ("official/cv/CRNN", _crnn, r"epoch: \[\d+/\d+\] step: \[\d+/\d+\], loss", "ckpt/crnn-*.ckpt")
MAX_STEPS["crnn"] = 0
LOAD_CHECK["crnn"] = ("src.crnn", "CRNNV2(__import__('types').SimpleNamespace(batch_size=8, input_size=512, "
                                  "hidden_size=256, class_num=37))")


import zoo_tail  # noqa: E402

LAUNCH = zoo_tail.LAUNCH
MODELS.update(zoo_tail.MODELS)
MAX_STEPS.update(zoo_tail.MAX_STEPS)
LOAD_CHECK.update(zoo_tail.LOAD_CHECK)
LOSS_RE.update(zoo_tail.LOSS_RE)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("zoo", help="checkout of mindspore-ai/models")
    ap.add_argument("--work", default="/tmp/zoo_work")
    ap.add_argument("--models", nargs="+", default=list(MODELS))
    ap.add_argument("--frameworks", nargs="+", default=["msjax", "mindspore"])
    ap.add_argument("--ms-python", default="/tmp/ms/bin/python")
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--max-steps", type=int, default=None,
                    help="stop a run after this many step lines (default: MAX_STEPS; 0: never)")
    ap.add_argument("--timeout", type=float, default=1800)
    ap.add_argument("--msjax-pythonpath", default=None,
                    help="prepended to PYTHONPATH for the msjax runs (the zoo's requirements, NumPy < 2.4)")
    args = ap.parse_args(argv)
    zoo, work = os.path.abspath(args.zoo), os.path.abspath(args.work)
    data = prepare_data(zoo, work, args.ms_python, args.models)
    results = []
    for name in args.models:
        folder, argv_fn, step_re, ckpt_glob = MODELS[name]
        cwd = os.path.join(zoo, folder)
        for run in range(args.runs):
            for fw in args.frameworks:
                FRAMEWORK[0] = fw
                out = os.path.join(work, "out", f"{name}_{fw}_{run}")
                os.makedirs(out, exist_ok=True)
                argv = argv_fn(zoo, work, data, out)
                env = dict(data.get("env", {}).get(name) or {})
                cmd = ([sys.executable, "-m", "msjax", "run"] if fw == "msjax" else [args.ms_python])
                if name in LAUNCH:     # a launched job: msjax launch / MindSpore's msrun, msrun's flags
                    n, ms_bin = LAUNCH[name], os.path.dirname(args.ms_python)
                    cmd = [sys.executable, "-m", "msjax", "launch"] if fw == "msjax" else [os.path.join(ms_bin, "msrun")]
                    cmd += [f"--worker_num={n}", f"--local_worker_num={n}", "--join=True", f"--log_dir={out}/logs"]
                    if fw == "mindspore":    # msrun starts its workers with the `python` on its PATH
                        env["PATH"] = os.pathsep.join((ms_bin, os.environ.get("PATH", "")))
                cmd = cmd + argv
                cap = MAX_STEPS[name] if args.max_steps is None else args.max_steps
                path = [data.get("pythonpath", {}).get(name), args.msjax_pythonpath if fw == "msjax" else None]
                r = run_one(cmd, cwd, step_re, cap, args.timeout, out + ".log",
                            os.pathsep.join(p for p in path if p) or None, LOSS_RE.get(name), env)
                r.update(model=name, framework=fw, run=run, load=os.getloadavg()[0])
                ckpts = sorted(glob.glob(os.path.join(out, ckpt_glob.format(folder=cwd))), key=os.path.getmtime)
                if ckpts:
                    r["ckpt"] = ckpts[-1]
                    if fw == "msjax":
                        r.update(check_load(args.ms_python, cwd, ckpts[-1], LOAD_CHECK[name],
                                            data.get("pythonpath", {}).get(name)))
                mine = [x.get("ckpt") for x in results + [r] if x["model"] == name and x["run"] == run]
                if fw == "mindspore" and len(mine) == 2 and all(mine):
                    r["same_names_and_shapes_as_msjax_ckpt"] = same_layout(args.ms_python, *mine)
                print(json.dumps(r), flush=True)
                results.append(r)
    with open(os.path.join(work, "results.json"), "w") as f:
        json.dump(results, f, indent=1)
    print("\n| model | msjax steps/s | MindSpore steps/s | msjax ckpt loads in MindSpore | loss falling |")
    print("|---|---|---|---|---|")
    for name in args.models:
        med = {}
        for fw in args.frameworks:
            v = [r["steps_per_s"] for r in results if r["model"] == name and r["framework"] == fw
                 and "steps_per_s" in r]
            med[fw] = f"{statistics.median(v):.2f}" if v else "-"
        loads = [r.get("loads_in_mindspore") for r in results if r["model"] == name and r["framework"] == "msjax"]
        falls = {r["framework"]: (r.get("loss_first"), r.get("loss_last"), r.get("loss_falling"))
                 for r in results if r["model"] == name}
        print(f"| {name} | {med.get('msjax', '-')} | {med.get('mindspore', '-')} | {loads} | {falls} |")


if __name__ == "__main__":
    main()
