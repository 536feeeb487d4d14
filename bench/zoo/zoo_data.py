"""Small synthetic data sets for running MindSpore's model zoo (``mindspore-ai/models``)
unmodified, in the on-disk formats its scripts read.

* CIFAR-10 binary version: one ``data_batch_1.bin`` of 10,000 records (MindSpore's
  ``Cifar10Dataset`` insists on 10,000 records per file), linked into the folder layouts
  ResNet (``<dir>/data_batch_1.bin``) and VGG16 (``<dir>/cifar-10-batches-bin/``) expect;
* an ImageFolder tree of JPEG files (``<dir>/train/<class>/<n>.jpg``, MobileNetV2, WGAN);
* a ShapeNet part-segmentation tree (``synsetoffset2category.txt``,
  ``train_test_split/shuffled_{train,test}_file_list.json``, ``<synset>/points/<id>.pts`` of
  ``x y z`` lines, ``<synset>/points_label/<id>.seg`` of part labels 1..k; PointNet);
* the LSTM's preprocessed IMDB reviews: 4-shard MindRecord files and an embedding table;
* a tab-separated parallel corpus with a ``vocab.txt`` (``<s>``, ``</s>``, ``<unk>`` first)
  that the Transformer's own ``create_data.py`` turns into MindRecord files;
* CRNN's ``synth`` folder (``lexicon.txt``, ``annotation_{train,test}.txt``, JPEG pictures of
  words), with a Python ``Levenshtein`` module and a ``sitecustomize`` reporting 8 CPUs beside it.

The image writers are those of ``examples/zoo/model_utils/synthetic.py`` (one place).
"""
import json
import os
import sys

import numpy as np

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(_HERE, "..", "..", "examples", "zoo"))
from model_utils.synthetic import write_cifar10_bin, write_image_folder  # noqa: E402


def cifar10(root):
    """``root/cifar10/data_batch_1.bin`` (+ ``test_batch.bin``) and the two layouts."""
    src = write_cifar10_bin(os.path.join(root, "cifar10"))
    resnet = os.path.join(root, "cifar_resnet")
    vgg = os.path.join(root, "cifar_vgg", "cifar-10-batches-bin")
    for d in (resnet, vgg):
        os.makedirs(d, exist_ok=True)
        link = os.path.join(d, "data_batch_1.bin")
        if not os.path.exists(link):
            os.symlink(os.path.join(src, "data_batch_1.bin"), link)
    return resnet, os.path.dirname(vgg)


def image_folder(root, num_classes=4, per_class=32, size=48, name="imagefolder"):
    path = os.path.join(root, name)
    if not os.path.isdir(os.path.join(path, "train")):
        write_image_folder(path, num_classes=num_classes, per_class=per_class, size=size)
    return path


def parallel_corpus(root, pairs=256, vocab=60, seed=0):
    """``root/corpus/train.tok.clean.bpe.en-de`` (``source<TAB>target`` lines of 4 to 14
    words; the target is the source with each word mapped by a fixed permutation) and
    ``root/corpus/vocab.bpe.32000``. Returns (input file, vocab file)."""
    path = os.path.join(root, "corpus")
    os.makedirs(path, exist_ok=True)
    rng = np.random.default_rng(seed)
    words = [f"w{i}" for i in range(vocab)]
    perm = rng.permutation(vocab)
    vocab_file = os.path.join(path, "vocab.bpe.32000")
    with open(vocab_file, "w") as f:
        f.write("\n".join(["<s>", "</s>", "<unk>"] + words) + "\n")
    text = os.path.join(path, "train.tok.clean.bpe.en-de")
    with open(text, "w") as f:
        for _ in range(pairs):
            ids = rng.integers(0, vocab, int(rng.integers(4, 15)))
            f.write(" ".join(words[i] for i in ids) + "\t" + " ".join(words[perm[i]] for i in ids) + "\n")
    return text, vocab_file, vocab + 3


def shapenet_part(root, category="Chair", synset="03001627", train=24, test=4, points=300, parts=4, seed=0):
    """``root/shapenet`` in the layout of ``shapenetcore_partanno_segmentation_benchmark_v0``: one
    category, ``train`` + ``test`` shapes of ``points`` points (a box whose part label follows the
    height, so the task is learnable), labels 1..``parts``. Returns the folder."""
    path = os.path.join(root, "shapenet")
    if os.path.isdir(os.path.join(path, synset)):
        return path
    rng = np.random.default_rng(seed)
    for sub in ("points", "points_label"):
        os.makedirs(os.path.join(path, synset, sub), exist_ok=True)
    os.makedirs(os.path.join(path, "train_test_split"), exist_ok=True)
    with open(os.path.join(path, "synsetoffset2category.txt"), "w") as f:
        f.write(f"{category}\t{synset}\n")
    names = [f"{i:06x}" for i in range(train + test)]
    for name in names:
        xyz = rng.uniform(-1, 1, (points, 3)).astype(np.float32) * np.float32([0.5, 1.0, 0.5])
        seg = np.clip(((xyz[:, 1] + 1) / 2 * parts).astype(np.int64) + 1, 1, parts)
        np.savetxt(os.path.join(path, synset, "points", name + ".pts"), xyz, fmt="%.5f")
        np.savetxt(os.path.join(path, synset, "points_label", name + ".seg"), seg, fmt="%d")
    for split, part in (("train", names[:train]), ("test", names[train:])):
        with open(os.path.join(path, "train_test_split", f"shuffled_{split}_file_list.json"), "w") as f:
            json.dump([f"shape_data/{synset}/{n}" for n in part], f)
    return path


def imdb_mindrecord(root, train=128, test=32, vocab=200, embed=16, seq=500, seed=0):
    """``root/imdb_preprocess``: what the LSTM's ``convert_to_mindrecord`` leaves (``weight.txt``, a
    ``vocab x embed`` table, and ``aclImdb_{train,test}.mindrecord{0..3}``, 4 shards of rows ``id``,
    ``label``, ``feature`` (``seq`` word ids, 0-padded)), written with ``mindrecord.FileWriter``
    and the zoo's schema; the label is whether the review uses more ids from the upper half of the
    vocabulary. Skips gensim and the GloVe download. Returns the folder."""
    path = os.path.join(root, "imdb_preprocess")
    if os.path.exists(os.path.join(path, "aclImdb_test.mindrecord0")):
        return path
    from msjax.mindrecord import FileWriter
    os.makedirs(path, exist_ok=True)
    rng = np.random.default_rng(seed)
    np.savetxt(os.path.join(path, "weight.txt"), rng.normal(0, 0.3, (vocab, embed)).astype(np.float32))
    for split, n in (("train", train), ("test", test)):
        rows = []
        for i in range(n):
            length = int(rng.integers(20, 120))
            label = int(rng.integers(0, 2))
            lo, hi = (vocab // 2, vocab) if label else (1, vocab // 2)
            words = np.where(rng.random(length) < 0.7, rng.integers(lo, hi, length), rng.integers(1, vocab, length))
            feature = np.zeros(seq, np.int32)
            feature[:length] = words
            rows.append({"id": i, "label": label, "feature": feature})
        writer = FileWriter(os.path.join(path, f"aclImdb_{split}.mindrecord"), shard_num=4)
        writer.add_schema({"id": {"type": "int32"}, "label": {"type": "int32"},
                           "feature": {"type": "int32", "shape": [-1]}}, "nlp_schema")
        writer.add_index(["id", "label"])
        writer.write_raw_data(rows)
        writer.commit()
    return path


def gensim_stub(root):
    """A folder holding an empty ``gensim`` module: official/nlp/LSTM's ``src/__init__.py`` imports
    ``src.imdb``, which imports gensim at the top, though only ``--preprocess=true`` uses it."""
    path = os.path.join(root, "stubs")
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, "gensim.py"), "w") as f:
        f.write('"""Stand-in: official/nlp/LSTM imports gensim but only its preprocessing uses it."""\n')
    return path


def unpaired_images(root, per_domain=64, size=40):
    """``root/unpaired/{trainA,trainB}/<n>.jpg``: two image domains (CycleGAN's ``--dataroot``),
    the first two classes of a synthetic ImageFolder tree. Returns the folder."""
    path = os.path.join(root, "unpaired")
    if os.path.isdir(os.path.join(path, "trainB")):
        return path
    src = os.path.join(image_folder(root, num_classes=2, per_class=per_domain, size=size, name="unpaired_src"), "train")
    os.makedirs(path, exist_ok=True)
    for k, domain in enumerate(("trainA", "trainB")):
        os.symlink(os.path.join(src, f"class_{k}"), os.path.join(path, domain))
    return path


def crnn_synth(root, train=64, test=16, seed=0):
    """``root/crnn_synth``: the layout of official/cv/CRNN's ``synth`` data set (its ``CaptchaDataset``):
    ``lexicon.txt`` (one word a line), ``annotation_train.txt``/``annotation_test.txt`` (``<image>
    <lexicon line>``) and the JPEG images, 100x32 pictures of a lowercase word of 3 to 6 letters and
    digits drawn in PIL's default font on a noisy light background."""
    from PIL import Image, ImageDraw, ImageFont
    path = os.path.join(root, "crnn_synth")
    if os.path.exists(os.path.join(path, "annotation_test.txt")):
        return path
    os.makedirs(path, exist_ok=True)
    rng = np.random.default_rng(seed)
    chars = "abcdefghijklmnopqrstuvwxyz0123456789"
    font = ImageFont.load_default()
    words = ["".join(rng.choice(list(chars), int(rng.integers(3, 7)))) for _ in range(train + test)]
    with open(os.path.join(path, "lexicon.txt"), "w") as f:
        f.write("\n".join(words) + "\n")
    for split, rows in (("train", range(train)), ("test", range(train, train + test))):
        with open(os.path.join(path, f"annotation_{split}.txt"), "w") as f:
            for i in rows:
                back = rng.integers(170, 256, (32, 100, 3)).astype(np.uint8)
                img = Image.fromarray(back)
                ImageDraw.Draw(img).text((int(rng.integers(2, 30)), int(rng.integers(4, 16))), words[i],
                                         fill=tuple(int(v) for v in rng.integers(0, 80, 3)), font=font)
                img.save(os.path.join(path, f"{i:05d}.jpg"), quality=95)
                f.write(f"{i:05d}.jpg {i}\n")
    return path


def levenshtein_module(root):
    """A folder holding a ``Levenshtein`` module with ``distance(a, b)`` (the edit distance, in
    Python): official/cv/CRNN's ``train.py`` imports ``src.metric``, which imports the
    python-Levenshtein package for its accuracy metric."""
    path = os.path.join(root, "stubs")
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, "Levenshtein.py"), "w") as f:
        f.write('"""Stand-in for python-Levenshtein: the edit distance only."""\n\n\n'
                'def distance(a, b):\n'
                '    row = list(range(len(b) + 1))\n'
                '    for i, ca in enumerate(a, 1):\n'
                '        prev, row[0] = row[0], i\n'
                '        for j, cb in enumerate(b, 1):\n'
                '            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (ca != cb))\n'
                '    return row[-1]\n')
    return path


def cpu_count_shim(root, cpus=8):
    """A folder holding a ``sitecustomize`` module that makes ``os.cpu_count()`` report at least
    ``cpus``: official/cv/CRNN maps its data with ``num_parallel_workers=8``, which MindSpore (and
    msjax, as MindSpore) refuses on a machine with fewer cores. Put on both frameworks' PYTHONPATH."""
    path = os.path.join(root, f"cpu_count_{cpus}")
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, "sitecustomize.py"), "w") as f:
        f.write(f'"""Report at least {cpus} CPUs (written by bench/zoo/zoo_data.py)."""\n'
                'import os\n\n'
                f'_real = os.cpu_count\nos.cpu_count = lambda: max(_real() or 1, {cpus})\n')
    return path


def cpu_count_preload(root, cpus=8):
    """``root/cpu_count_preload_<cpus>/libcpus.so``, built with the system C compiler: an
    ``LD_PRELOAD`` library whose ``get_nprocs``/``sysconf(_SC_NPROCESSORS_*)`` report at least
    ``cpus``. MindSpore's C++ dataset engine checks ``num_parallel_workers`` against
    ``std::thread::hardware_concurrency()`` (``MindDataset``'s 4 workers in the LSTM and
    Wide&Deep), which ``cpu_count_shim`` cannot reach. Returns the library's path."""
    path = os.path.join(root, f"cpu_count_preload_{cpus}")
    lib = os.path.join(path, "libcpus.so")
    if os.path.exists(lib):
        return lib
    os.makedirs(path, exist_ok=True)
    src = os.path.join(path, "cpus.c")
    with open(src, "w") as f:
        f.write("#define _GNU_SOURCE\n#include <dlfcn.h>\n#include <unistd.h>\n"
                f"#define CPUS {cpus}\n"
                "int get_nprocs(void) { return CPUS; }\nint get_nprocs_conf(void) { return CPUS; }\n"
                "long sysconf(int name) {\n"
                "  static long (*real)(int);\n"
                "  if (!real) real = (long (*)(int))dlsym(RTLD_NEXT, \"sysconf\");\n"
                "  long v = real(name);\n"
                "  if ((name == _SC_NPROCESSORS_ONLN || name == _SC_NPROCESSORS_CONF) && v < CPUS) return CPUS;\n"
                "  return v;\n}\n")
    import subprocess
    subprocess.run(["cc", "-shared", "-fPIC", "-O2", "-o", lib, src, "-ldl"], check=True)
    return lib


def bert_classification_mindrecord(root, samples=128, seq=32, vocab=100, seed=0):
    """``root/bert_cls/train.mindrecord``: sentence-classification rows in the schema of the
    zoo's ``generate_tnews_mindrecord.py`` (``input_ids``, ``input_mask``, ``segment_ids``,
    ``label_ids``, int32). ``[CLS] words [SEP]`` with ids from 5 on (past [PAD], [UNK], [CLS],
    [SEP], [MASK]); the label is whether most words come from the upper half of the
    vocabulary. Returns the file."""
    path = os.path.join(root, "bert_cls", "train.mindrecord")
    if os.path.exists(path):
        return path
    from msjax.mindrecord import FileWriter
    os.makedirs(os.path.dirname(path), exist_ok=True)
    rng = np.random.default_rng(seed)
    half = 5 + (vocab - 5) // 2
    rows = []
    for _ in range(samples):
        n, label = int(rng.integers(6, seq - 2)), int(rng.integers(2))
        lo, hi = (half, vocab) if label else (5, half)
        words = np.where(rng.random(n) < 0.8, rng.integers(lo, hi, n), rng.integers(5, vocab, n))
        ids = [2] + words.tolist() + [3]
        pad = seq - len(ids)
        rows.append({"input_ids": np.array(ids + [0] * pad, np.int32),
                     "input_mask": np.array([1] * len(ids) + [0] * pad, np.int32),
                     "segment_ids": np.zeros(seq, np.int32), "label_ids": np.array([label], np.int32)})
    writer = FileWriter(path, shard_num=1)
    writer.add_schema({k: {"type": "int32", "shape": [-1]} for k in rows[0]}, "bert_cls")
    writer.write_raw_data(rows)
    writer.commit()
    return path


def graph_mindrecord(root, nodes=80, classes=4, features=16, seed=0):
    """``root/graph/cora_mr``: a citation-style graph in the MindRecord layout of the zoo's
    ``utils/graph_to_mindrecord`` (the one file ``GraphData`` reads; GCN's ``--data_dir``):
    rows of ``first_id``, ``second_id``, ``third_id``, ``type``, ``weight``, ``attribute``
    ('n' node / 'e' edge), ``node_feature_index``, ``edge_feature_index`` and the node features
    ``node_feature_1`` (float32 features) and ``node_feature_2`` (int32 label). Nodes link
    mostly within their class. Returns the file."""
    path = os.path.join(root, "graph", "cora_mr")
    if os.path.exists(path):
        return path
    from msjax.mindrecord import FileWriter
    os.makedirs(os.path.dirname(path), exist_ok=True)
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, classes, nodes)
    feats = (rng.random((nodes, features)) < 0.1).astype(np.float32)
    feats[np.arange(nodes), labels * (features // classes)] = 1.0
    feats /= feats.sum(1, keepdims=True)
    none_i, zero_f, zero_i = np.array([-1], np.int32), np.array([0], np.float32), np.array([0], np.int32)
    rows = [{"first_id": i, "second_id": 0, "third_id": 0, "type": 0, "weight": 1.0, "attribute": "n",
             "node_feature_index": np.array([1, 2], np.int32), "edge_feature_index": none_i,
             "node_feature_1": feats[i], "node_feature_2": np.array([labels[i]], np.int32)} for i in range(nodes)]
    edges = 0
    for i in range(nodes):
        same = np.flatnonzero(labels == labels[i])
        for j in set(rng.choice(same, 3).tolist() + rng.integers(0, nodes, 1).tolist()) - {i}:
            rows.append({"first_id": edges, "second_id": i, "third_id": int(j), "type": 0, "weight": 1.0,
                         "attribute": "e", "node_feature_index": none_i, "edge_feature_index": none_i,
                         "node_feature_1": zero_f, "node_feature_2": zero_i})
            edges += 1
    writer = FileWriter(path, shard_num=1)
    writer.add_schema({"first_id": {"type": "int64"}, "second_id": {"type": "int64"}, "third_id": {"type": "int64"},
                       "type": {"type": "int32"}, "weight": {"type": "float32"}, "attribute": {"type": "string"},
                       "node_feature_index": {"type": "int32", "shape": [-1]},
                       "edge_feature_index": {"type": "int32", "shape": [-1]},
                       "node_feature_1": {"type": "float32", "shape": [-1]},
                       "node_feature_2": {"type": "int32", "shape": [-1]}}, "graph")
    writer.write_raw_data(rows)
    writer.commit()
    return path


def isbi_tiff(root, images=30, size=64, seed=0):
    """``root/isbi/train-volume.tif`` and ``train-labels.tif``: multi-page greyscale TIFF stacks
    as in the ISBI 2012 challenge (Unet's ``--data_path``): bright blobs on noise, the labels
    255 on the blobs and 0 elsewhere. Returns the folder."""
    from PIL import Image
    path = os.path.join(root, "isbi")
    if os.path.exists(os.path.join(path, "train-labels.tif")):
        return path
    os.makedirs(path, exist_ok=True)
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[:size, :size]
    vols, labs = [], []
    for _ in range(images):
        mask = np.zeros((size, size), bool)
        for cy, cx, r in zip(*rng.integers(0, size, (2, 4)), rng.integers(size // 10, size // 5, 4)):
            mask |= (yy - cy) ** 2 + (xx - cx) ** 2 < r * r
        img = np.clip(rng.normal(80, 30, (size, size)) + 120 * mask, 0, 255).astype(np.uint8)
        vols.append(Image.fromarray(img))
        labs.append(Image.fromarray((mask * 255).astype(np.uint8)))
    for name, pages in (("train-volume.tif", vols), ("train-labels.tif", labs)):
        pages[0].save(os.path.join(path, name), save_all=True, append_images=pages[1:])
    return path


def detection_folder(root, images=32, size=96, classes=3, seed=0):
    """``root/detection/images/<n>.jpg`` and ``root/detection/annotation.txt``, the "other"
    dataset layout of the zoo's SSD (``--image_dir``, ``--anno_path``): a line per image,
    ``<file> x1,y1,x2,y2,class ...``; one or two filled rectangles a picture, the class
    (1..``classes``) giving its colour. Returns (image folder, annotation file)."""
    from PIL import Image
    path = os.path.join(root, "detection")
    anno = os.path.join(path, "annotation.txt")
    if os.path.exists(anno):
        return os.path.join(path, "images"), anno
    os.makedirs(os.path.join(path, "images"), exist_ok=True)
    rng = np.random.default_rng(seed)
    colours = np.array([[230, 40, 40], [40, 230, 40], [40, 40, 230], [230, 230, 40]], np.float32)
    lines = []
    for n in range(images):
        img = rng.normal(110, 25, (size, size, 3))
        boxes = []
        for _ in range(int(rng.integers(1, 3))):
            w, h = rng.integers(size // 4, size // 2, 2)
            x1, y1 = int(rng.integers(0, size - w)), int(rng.integers(0, size - h))
            c = int(rng.integers(1, classes + 1))
            img[y1:y1 + h, x1:x1 + w] = colours[c - 1]
            boxes.append(f"{x1},{y1},{x1 + w},{y1 + h},{c}")
        Image.fromarray(np.clip(img, 0, 255).astype(np.uint8)).save(os.path.join(path, "images", f"{n:04d}.jpg"))
        lines.append(f"{n:04d}.jpg " + " ".join(boxes))
    with open(anno, "w") as f:
        f.write("\n".join(lines) + "\n")
    return os.path.join(path, "images"), anno


def coco_detection(root, images=8, size=160, classes=3, seed=0):
    """``root/coco/images/<n>.jpg`` and ``root/coco/annotations/instances.json``: a COCO-format
    detection set (``images``, ``annotations`` with ``[x, y, w, h]`` boxes, ``iscrowd``, ``area``,
    ``categories`` with ids 1..``classes``), one or two filled rectangles a picture, coloured by
    class (the zoo's YOLOv5 reads it with ``pycocotools``). Returns the ``coco`` folder."""
    from PIL import Image
    path = os.path.join(root, "coco")
    ann = os.path.join(path, "annotations", "instances.json")
    if os.path.exists(ann):
        return path
    os.makedirs(os.path.join(path, "images"), exist_ok=True)
    os.makedirs(os.path.dirname(ann), exist_ok=True)
    rng = np.random.default_rng(seed)
    colours = np.array([[230, 40, 40], [40, 230, 40], [40, 40, 230], [230, 230, 40]], np.float32)
    doc = {"images": [], "annotations": [], "categories": [{"id": c, "name": f"c{c}"} for c in range(1, classes + 1)]}
    for n in range(images):
        img = rng.normal(110, 25, (size, size, 3))
        for _ in range(int(rng.integers(1, 3))):
            w, h = (int(v) for v in rng.integers(size // 5, size // 2, 2))
            x, y = int(rng.integers(0, size - w)), int(rng.integers(0, size - h))
            c = int(rng.integers(1, classes + 1))
            img[y:y + h, x:x + w] = colours[c - 1]
            doc["annotations"].append({"id": len(doc["annotations"]) + 1, "image_id": n + 1, "category_id": c,
                                       "bbox": [x, y, w, h], "area": w * h, "iscrowd": 0})
        name = f"{n:04d}.jpg"
        Image.fromarray(np.clip(img, 0, 255).astype(np.uint8)).save(os.path.join(path, "images", name))
        doc["images"].append({"id": n + 1, "file_name": name, "height": size, "width": size})
    with open(ann, "w") as f:
        json.dump(doc, f)
    return path


def criteo_mindrecord(root, records=16, line_per_sample=1000, fields=39, vocab=200000, seed=0):
    """``root/criteo_mr/train_input_part.mindrecord00`` (+ ``test_input_part.mindrecord0``): the
    layout the zoo's Wide&Deep / DeepFM preprocessing writes (``feat_ids`` int32, ``feat_vals``
    float32, ``label`` float32, each record ``line_per_sample`` rows flattened); ids below
    ``vocab``, the label a threshold on the first ids' parity. Returns the folder."""
    from msjax.mindrecord import FileWriter
    path = os.path.join(root, "criteo_mr")
    if os.path.exists(os.path.join(path, "train_input_part.mindrecord00")):
        return path
    os.makedirs(path, exist_ok=True)
    rng = np.random.default_rng(seed)
    schema = {"label": {"type": "float32", "shape": [-1]}, "feat_vals": {"type": "float32", "shape": [-1]},
              "feat_ids": {"type": "int32", "shape": [-1]}}
    for name, count in (("train_input_part.mindrecord00", records), ("test_input_part.mindrecord0", 2)):
        writer = FileWriter(os.path.join(path, name), 1)
        writer.add_schema(schema, "CRITEO")
        rows = []
        for _ in range(count):
            ids = rng.integers(0, vocab, (line_per_sample, fields)).astype(np.int32)
            vals = rng.random((line_per_sample, fields)).astype(np.float32)
            label = ((ids[:, :3] % 2).sum(1) >= 2).astype(np.float32)
            rows.append({"feat_ids": ids.ravel(), "feat_vals": vals.ravel(), "label": label})
        writer.write_raw_data(rows)
        writer.commit()
    return path


def pip_target(root, *packages):
    """``root/pip_target``: the zoo's own requirements (YOLOv5's ``pycocotools``) installed with
    ``pip install --no-deps --target`` for this Python (MindSpore 2.10's venv is the same 3.11),
    put on both frameworks' ``PYTHONPATH``. Returns the folder."""
    import subprocess
    import re
    path = os.path.join(root, "pip_target")
    os.makedirs(path, exist_ok=True)
    have = {re.split(r"-\d", d)[0].lower().replace("_", "-") for d in os.listdir(path) if d.endswith(".dist-info")}
    wanted = [p for p in packages if re.split(r"[<>=]", p)[0].lower() not in have]
    if wanted:
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", path, *wanted],
                       check=True)
    return path


def bert_ner_mindrecord(root, samples=128, seq=32, vocab=100, seed=0):
    """``root/bert_ner/train.mindrecord`` (``input_ids``, ``input_mask``, ``segment_ids``,
    ``label_ids``, int32, ``seq`` long, as the zoo's ``generate_cluener_mindrecord.py`` writes
    them) and ``root/bert_ner/labels.txt`` (``PER``, ``LOC``: tags O, S_/B_/M_/E_ + label,
    ``convert_labels_to_index``'s order). Words 50-59 are one-word persons (S_PER, tag 1),
    60-69 places (S_LOC, tag 5), the rest O. Returns (file, label file)."""
    path = os.path.join(root, "bert_ner")
    files = os.path.join(path, "train.mindrecord"), os.path.join(path, "labels.txt")
    if os.path.exists(files[0]):
        return files
    from msjax.mindrecord import FileWriter
    os.makedirs(path, exist_ok=True)
    with open(files[1], "w") as f:
        f.write("PER\nLOC\n")
    rng = np.random.default_rng(seed)
    rows = []
    for _ in range(samples):
        n = int(rng.integers(6, seq - 2))
        words = rng.integers(5, vocab, n)
        tags = np.where((words >= 50) & (words < 60), 1, np.where((words >= 60) & (words < 70), 5, 0))
        pad = seq - n - 2
        rows.append({"input_ids": np.array([2] + words.tolist() + [3] + [0] * pad, np.int32),
                     "input_mask": np.array([1] * (n + 2) + [0] * pad, np.int32),
                     "segment_ids": np.zeros(seq, np.int32),
                     "label_ids": np.array([0] + tags.tolist() + [0] + [0] * pad, np.int32)})
    writer = FileWriter(files[0], shard_num=1)
    writer.add_schema({k: {"type": "int32", "shape": [-1]} for k in rows[0]}, "bert_ner")
    writer.write_raw_data(rows)
    writer.commit()
    return files


def numpy_alias_shim(root):
    """``root/numpy_alias_shim/sitecustomize.py``: restores NumPy's ``np.int``/``np.float``/
    ``np.bool``/``np.object`` aliases (removed in NumPy 1.24) for zoo code written before them
    (Unet's data loader); put on ``PYTHONPATH``. Returns the folder."""
    path = os.path.join(root, "numpy_alias_shim")
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, "sitecustomize.py"), "w") as f:
        f.write("import numpy as _np\n"
                "for _n, _t in ((\"int\", int), (\"float\", float), (\"bool\", bool), (\"object\", object)):\n"
                "    if not hasattr(_np, _n):\n"
                "        setattr(_np, _n, _t)\n")
    return path


def div2k(root, train=16, valid=2, size=96, scale=2, seed=0):
    """``root/div2k``: the DIV2K layout official/cv/EDSR reads (``DIV2K_{train,valid}_HR/<n>.png`` and
    ``DIV2K_{train,valid}_LR_bicubic/X<scale>/<n>x<scale>.png``), smooth random pictures of
    ``size`` pixels and their bicubic reductions (PIL). Returns the folder."""
    from PIL import Image
    path = os.path.join(root, "div2k")
    if os.path.isdir(os.path.join(path, "DIV2K_valid_HR")):
        return path
    rng = np.random.default_rng(seed)
    for split, count, first in (("train", train, 1), ("valid", valid, 801)):
        hr_dir = os.path.join(path, f"DIV2K_{split}_HR")
        lr_dir = os.path.join(path, f"DIV2K_{split}_LR_bicubic", f"X{scale}")
        os.makedirs(hr_dir, exist_ok=True)
        os.makedirs(lr_dir, exist_ok=True)
        for i in range(first, first + count):
            low = rng.integers(0, 256, (size // 8, size // 8, 3), dtype=np.uint8)
            hr = Image.fromarray(low).resize((size, size), Image.BICUBIC)
            hr.save(os.path.join(hr_dir, f"{i:04d}.png"))
            hr.resize((size // scale, size // scale), Image.BICUBIC).save(os.path.join(lr_dir, f"{i:04d}x{scale}.png"))
    return path


def voc_segmentation(root, images=16, size=64, classes=21, seed=0):
    """``root/voc_seg``: JPEG pictures and PNG label maps (class ids 0..classes-1, 255 on a border)
    with a ``train.txt`` list of ``image label`` paths relative to the folder, the input of
    official/cv/DeepLabv3's ``src/data/build_seg_data.py``. Returns (folder, list file)."""
    from PIL import Image
    path = os.path.join(root, "voc_seg")
    lst = os.path.join(path, "train.txt")
    if os.path.exists(lst):
        return path, lst
    os.makedirs(os.path.join(path, "JPEGImages"), exist_ok=True)
    os.makedirs(os.path.join(path, "SegmentationClass"), exist_ok=True)
    rng = np.random.default_rng(seed)
    lines = []
    for i in range(images):
        label = np.zeros((size, size), np.uint8)
        picture = rng.integers(0, 64, (size, size, 3)).astype(np.uint8)
        for _ in range(3):   # rectangles of a class, coloured by it
            c = int(rng.integers(1, classes))
            y, x = rng.integers(0, size // 2, 2)
            h, w = rng.integers(size // 4, size // 2, 2)
            label[y:y + h, x:x + w] = c
            picture[y:y + h, x:x + w] = (c * 12) % 256
        label[[0, -1], :] = 255
        name = f"{i:04d}"
        Image.fromarray(picture).save(os.path.join(path, "JPEGImages", name + ".jpg"))
        Image.fromarray(label).save(os.path.join(path, "SegmentationClass", name + ".png"))
        lines.append(f"JPEGImages/{name}.jpg SegmentationClass/{name}.png\n")
    with open(lst, "w") as f:
        f.writelines(lines)
    return path, lst


def coco_train2017(root):
    """``root/coco2017``: ``coco_detection``'s pictures and annotations in the COCO 2017 and 2014
    layouts (``train2017/``, ``val2017/``, ``annotations/instances_{train,val}2017.json``, the same
    for 2014; links), the ``--data_dir`` official/cv/YOLOv4 (2017) and YOLOv3 (2014) read."""
    src = coco_detection(root)
    path = os.path.join(root, "coco2017")
    os.makedirs(os.path.join(path, "annotations"), exist_ok=True)
    links = {}
    for year in ("2017", "2014"):
        for split in ("train", "val"):
            links[split + year] = "images"
            links[f"annotations/instances_{split}{year}.json"] = "annotations/instances.json"
    for name, target in links.items():
        if not os.path.lexists(os.path.join(path, name)):
            os.symlink(os.path.join(src, target), os.path.join(path, name))
    return path


def cell_nuclei(root, images=12, size=96, seed=0):
    """``root/cell_nuclei/<id>/image.png`` (RGB) and ``mask.png`` (0/255): the layout official/cv/Unet's
    ``preprocess_dataset.py`` leaves for its Cell_nuclei (Kaggle DSB 2018) config; bright discs on a
    noisy background and their masks. Returns the folder."""
    from PIL import Image
    path = os.path.join(root, "cell_nuclei")
    if os.path.isdir(path):
        return path
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:size, 0:size]
    for i in range(images):
        mask = np.zeros((size, size), bool)
        for _ in range(int(rng.integers(3, 7))):
            cy, cx, r = rng.integers(8, size - 8), rng.integers(8, size - 8), rng.integers(4, 10)
            mask |= (yy - cy) ** 2 + (xx - cx) ** 2 < r * r
        img = rng.normal(40, 12, (size, size, 3)) + mask[..., None] * 150
        folder = os.path.join(path, f"{i:04d}")
        os.makedirs(folder, exist_ok=True)
        Image.fromarray(np.clip(img, 0, 255).astype(np.uint8)).save(os.path.join(folder, "image.png"))
        Image.fromarray(mask.astype(np.uint8) * 255).save(os.path.join(folder, "mask.png"))
    return path


def bert_squad_mindrecord(root, samples=128, seq=32, vocab=100, seed=0):
    """``root/bert_squad/train.mindrecord``: SQuAD training features in the columns official/nlp/Bert's
    ``create_squad_dataset`` reads (``input_ids``, ``input_mask``, ``segment_ids`` of ``seq``;
    ``start_positions``, ``end_positions``, ``unique_ids``, ``is_impossible``), int32. The answer is
    the span of the context's words 50-59 (question first, segment 0; context segment 1)."""
    path = os.path.join(root, "bert_squad", "train.mindrecord")
    if os.path.exists(path):
        return path
    from msjax.mindrecord import FileWriter
    os.makedirs(os.path.dirname(path), exist_ok=True)
    rng = np.random.default_rng(seed)
    rows = []
    for i in range(samples):
        q = rng.integers(5, 50, 4).tolist()
        n = int(rng.integers(8, seq - 8))
        ctx = rng.integers(5, 50, n)
        start = int(rng.integers(0, n - 3))
        ctx[start:start + 3] = rng.integers(50, 60, 3)
        ids = [2] + q + [3] + ctx.tolist() + [3]
        pad = seq - len(ids)
        first = len(q) + 2
        rows.append({"input_ids": np.array(ids + [0] * pad, np.int32),
                     "input_mask": np.array([1] * len(ids) + [0] * pad, np.int32),
                     "segment_ids": np.array([0] * first + [1] * (n + 1) + [0] * pad, np.int32),
                     "start_positions": np.array([first + start], np.int32),
                     "end_positions": np.array([first + start + 2], np.int32),
                     "unique_ids": np.array([1000000000 + i], np.int32), "is_impossible": np.array([0], np.int32)})
    writer = FileWriter(path, shard_num=1)
    writer.add_schema({k: {"type": "int32", "shape": [-1]} for k in rows[0]}, "bert_squad")
    writer.write_raw_data(rows)
    writer.commit()
    return path
