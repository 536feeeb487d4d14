"""Readers of standard dataset files from a local directory: MNIST-format idx
files (``MnistDataset``, ``FashionMnistDataset``, ``KMnistDataset``), the CIFAR
binary versions (``Cifar10Dataset``, ``Cifar100Dataset``), class folders of image
files (``ImageFolderDataset``) and random images (``FakeImageDataset``).

Outputs follow MindSpore 2.10: MNIST ``image`` (28, 28, 1) uint8 and ``label``
uint32; CIFAR ``image`` (32, 32, 3) uint8 HWC; ``usage=None`` reads all splits,
files in name order. Nothing is ever downloaded. Files are read when first
iterated (memory-mapped), so constructing a dataset is cheap.
"""
from __future__ import annotations

import os
import struct

import numpy as np

from .sources import MappableSource

__all__ = ["MnistDataset", "FashionMnistDataset", "KMnistDataset", "Cifar10Dataset", "Cifar100Dataset",
           "ImageFolderDataset", "FakeImageDataset", "MindDataset", "DatasetCache"]


def _check_dir(dataset_dir):
    if not isinstance(dataset_dir, (str, os.PathLike)):
        raise TypeError(f"Argument dataset_dir with value {dataset_dir} is not of type [<class 'str'>].")
    dataset_dir = os.fspath(dataset_dir)
    if not os.path.isdir(dataset_dir) or not os.access(dataset_dir, os.R_OK):
        raise ValueError(f"The folder {dataset_dir} does not exist or is not a directory or permission denied!")
    return dataset_dir


def _check_usage(usage, valid=("train", "test", "all")):
    if usage is None:
        return "all"
    if not isinstance(usage, str):
        raise TypeError(f"Argument usage with value {usage} is not of type [<class 'str'>].")
    if usage not in valid:
        raise ValueError(f"Input usage is not within the valid set of {list(valid)}.")
    return usage


_IDX_DTYPES = {0x08: np.uint8, 0x09: np.int8, 0x0B: np.dtype(">i2"), 0x0C: np.dtype(">i4"),
               0x0D: np.dtype(">f4"), 0x0E: np.dtype(">f8")}


def read_idx(path):
    """An idx file (the MNIST format) as a numpy array (memory-mapped)."""
    with open(path, "rb") as f:
        head = f.read(4)
        if len(head) < 4 or head[0] != 0 or head[1] != 0 or head[2] not in _IDX_DTYPES:
            raise RuntimeError(f"Invalid idx file: {path} does not start with an idx magic number.")
        ndim = head[3]
        dims = struct.unpack(">" + "I" * ndim, f.read(4 * ndim))
        offset = 4 + 4 * ndim
    dtype = np.dtype(_IDX_DTYPES[head[2]])
    need = int(np.prod(dims)) * dtype.itemsize
    if os.path.getsize(path) - offset < need:
        raise RuntimeError(f"Invalid idx file: {path} is truncated (needs {need} data bytes for shape {dims}).")
    return np.memmap(path, dtype=dtype, mode="r", offset=offset, shape=tuple(dims))


class MnistDataset(MappableSource):
    """MNIST idx files: ``{train,t10k}-images-idx3-ubyte`` and ``-labels-idx1-ubyte``.

    ``MnistDataset(dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=None,
    sampler=None, num_shards=None, shard_id=None, cache=None)``; columns ``image`` (28, 28, 1) uint8,
    ``label`` uint32.
    """

    _what = "files"
    _prefixes = {"train": ["train"], "test": ["t10k"], "all": ["t10k", "train"]}

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        self.dataset_dir = _check_dir(dataset_dir)
        self.usage = _check_usage(usage)
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache)
        self._arrays = None

    def _col_names(self):
        return ["image", "label"]

    def _load(self):
        if self._arrays is None:
            images, labels = [], []
            for p in self._prefixes[self.usage]:
                ip = os.path.join(self.dataset_dir, f"{p}-images-idx3-ubyte")
                lp = os.path.join(self.dataset_dir, f"{p}-labels-idx1-ubyte")
                if not os.path.exists(ip) or not os.path.exists(lp):
                    continue
                im, lb = read_idx(ip), read_idx(lp)
                if im.ndim != 3 or lb.ndim != 1:
                    raise RuntimeError(f"Invalid MNIST files in {self.dataset_dir}: images must be 3-D and labels "
                                       f"1-D, got {im.shape} and {lb.shape}.")
                if len(im) != len(lb):
                    raise RuntimeError(f"Invalid MNIST files: {ip} has {len(im)} images but {lp} has {len(lb)} "
                                       "labels.")
                images.append(im)
                labels.append(lb)
            self._arrays = (images, labels, np.cumsum([0] + [len(x) for x in images]))
        return self._arrays

    def _num_rows(self):
        return int(self._load()[2][-1])

    def _labels(self):
        images, labels, _ = self._load()
        return np.concatenate([np.asarray(x) for x in labels]) if labels else np.zeros(0, np.uint32)

    def _read(self, i):
        images, labels, starts = self._load()
        f = int(np.searchsorted(starts, i, side="right") - 1)
        j = i - starts[f]
        img = np.array(images[f][j], dtype=np.uint8)[:, :, None]
        return [img, np.asarray(labels[f][j], dtype=np.uint32)]


class FashionMnistDataset(MnistDataset):
    """Fashion-MNIST (the MNIST idx format)."""


class KMnistDataset(MnistDataset):
    """Kuzushiji-MNIST (the MNIST idx format)."""


class Cifar10Dataset(MappableSource):
    """CIFAR-10 binary version: ``data_batch_*.bin`` / ``test_batch.bin``, records of
    1 label byte + 3072 pixel bytes (CHW). Columns ``image`` (32, 32, 3) uint8, ``label`` uint32.
    Like MindSpore, each file must hold the 10000 records of the real data set (the first
    10000 are read); a shorter file raises ``RuntimeError`` when iterated."""

    _what = "files"
    _label_bytes = 1
    _records_per_file = 10000
    _columns = ["image", "label"]

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        self.dataset_dir = _check_dir(dataset_dir)
        self.usage = _check_usage(usage)
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache)
        self._arrays = None

    def _col_names(self):
        return list(self._columns)

    def _files(self):
        names = sorted(os.listdir(self.dataset_dir))
        train = [n for n in names if n.startswith("data_batch") and n.endswith(".bin")]
        test = [n for n in names if n.startswith("test_batch") and n.endswith(".bin")]
        pick = {"train": train, "test": test, "all": train + test}[self.usage]
        return [os.path.join(self.dataset_dir, n) for n in pick]

    def _load(self):
        if self._arrays is None:
            rec = self._label_bytes + 3072
            parts = []
            for path in self._files():
                size = os.path.getsize(path)
                n = self._records_per_file
                if (n is not None and size < n * rec) or (n is None and size % rec):
                    raise RuntimeError(f"Invalid cifar file, failed to read data from: {path}, re-download "
                                       f"dataset(make sure it is CIFAR binary version): {size} bytes, need "
                                       f"{'%d records of ' % n if n else 'a multiple of '}{rec} bytes.")
                parts.append(np.memmap(path, dtype=np.uint8, mode="r", shape=(n or size // rec, rec)))
            self._arrays = (parts, np.cumsum([0] + [len(p) for p in parts]))
        return self._arrays

    def _num_rows(self):
        return int(self._load()[1][-1])

    def _labels(self):
        parts, _ = self._load()
        col = self._label_bytes - 1
        return np.concatenate([np.asarray(p[:, col]) for p in parts]) if parts else np.zeros(0, np.uint32)

    def _read(self, i):
        parts, starts = self._load()
        f = int(np.searchsorted(starts, i, side="right") - 1)
        r = np.asarray(parts[f][i - starts[f]])
        img = r[self._label_bytes:].reshape(3, 32, 32).transpose(1, 2, 0).copy()
        labels = [np.asarray(r[k], dtype=np.uint32) for k in range(self._label_bytes)]
        return [img] + labels


class Cifar100Dataset(Cifar10Dataset):
    """CIFAR-100 binary version: ``train.bin`` / ``test.bin``, records of coarse and fine
    label bytes + 3072 pixel bytes. Columns ``image``, ``coarse_label``, ``fine_label``."""

    _label_bytes = 2
    _columns = ["image", "coarse_label", "fine_label"]
    _records_per_file = None  # any whole number of records (not checked against MindSpore)

    def _files(self):
        pick = {"train": ["train.bin"], "test": ["test.bin"], "all": ["train.bin", "test.bin"]}[self.usage]
        return [os.path.join(self.dataset_dir, n) for n in pick if os.path.exists(os.path.join(self.dataset_dir, n))]


class ImageFolderDataset(MappableSource):
    """Images in one sub-folder per class; ``image`` is the file's bytes (uint8,
    1-D) unless ``decode=True``; ``label`` is the class index (int32), classes in
    name order unless ``class_indexing`` is given."""

    _what = "files"

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None, sampler=None,
                 extensions=None, class_indexing=None, decode=False, num_shards=None, shard_id=None, cache=None,
                 decrypt=None):
        self.dataset_dir = _check_dir(dataset_dir)
        if class_indexing is not None and not isinstance(class_indexing, dict):
            raise TypeError("class_indexing should be a dict.")
        if not isinstance(decode, bool):
            raise TypeError(f"Argument decode with value {decode} is not of type [<class 'bool'>].")
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache)
        self.extensions = None if extensions is None else list(extensions)  # case-sensitive, as MindSpore
        self.class_indexing = class_indexing
        self.decode = decode
        self.decrypt = decrypt
        self._items = None

    def _col_names(self):
        return ["image", "label"]

    def _scan(self):
        if self._items is None:
            classes = sorted(d for d in os.listdir(self.dataset_dir)
                             if os.path.isdir(os.path.join(self.dataset_dir, d)))
            index = self.class_indexing or {c: i for i, c in enumerate(classes)}
            items = []
            for c in classes:
                if c not in index:
                    continue
                folder = os.path.join(self.dataset_dir, c)
                for name in sorted(os.listdir(folder)):
                    path = os.path.join(folder, name)
                    if not os.path.isfile(path) and not os.path.isdir(path):
                        continue       # a sub-folder is listed and fails when read, as in MindSpore
                    if self.extensions is not None and os.path.splitext(name)[1] not in self.extensions:
                        continue
                    items.append((path, index[c]))
            self._items = items
            self._index = index
        return self._items

    def get_class_indexing(self):
        self._scan()
        return dict(self._index)

    def num_classes(self):
        return len(self.get_class_indexing())

    def _num_rows(self):
        return len(self._scan())

    def _labels(self):
        return np.asarray([lb for _, lb in self._scan()], np.int32)

    def _read(self, i):
        path, label = self._scan()[i]
        if os.path.isdir(path):
            raise RuntimeError(f"Invalid file found: {path}, should be file, but got directory.")
        with open(path, "rb") as f:
            data = f.read()
        if self.decrypt is not None:
            data = self.decrypt(data)
        image = np.frombuffer(data, np.uint8).copy()
        if self.decode:
            from .vision.transforms import Decode
            image = Decode()(image)
        return [image, np.asarray(label, np.int32)]


class FakeImageDataset(MappableSource):
    """Random images and labels (``FakeImageDataset(num_images=1000, image_size=(224, 224, 3),
    num_classes=10, base_seed=0, ...)``); image ``i`` depends only on ``base_seed`` and ``i``."""

    def __init__(self, num_images=1000, image_size=(224, 224, 3), num_classes=10, base_seed=0, num_samples=None,
                 num_parallel_workers=None, shuffle=None, sampler=None, num_shards=None, shard_id=None):
        for name, v in (("num_images", num_images), ("num_classes", num_classes), ("base_seed", base_seed)):
            if not isinstance(v, int) or isinstance(v, bool):
                raise TypeError(f"Argument {name} with value {v} is not of type [<class 'int'>].")
        if num_images <= 0:
            raise ValueError(f"Input num_images is not within the required interval of [1, 2147483647].")
        if num_classes <= 0:
            raise ValueError(f"Input num_classes is not within the required interval of [1, 2147483647].")
        if not isinstance(image_size, (list, tuple)) or len(image_size) != 3:
            raise ValueError("image_size should be a list or tuple of length 3.")
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        self.num_images, self.image_size = num_images, image_size
        self.num_classes, self.base_seed = num_classes, base_seed  # attributes, as in MindSpore

    def _col_names(self):
        return ["image", "label"]

    def _num_rows(self):
        return self.num_images

    def _labels(self):
        return np.asarray([self._read(i)[1] for i in range(self.num_images)])

    def _read(self, i):
        rng = np.random.default_rng([self.base_seed, i])
        img = rng.integers(0, 256, tuple(self.image_size), dtype=np.uint8)
        return [img, np.asarray(rng.integers(0, self.num_classes), np.uint32)]


class MindDataset(MappableSource):
    """MindRecord files (written by ``mindspore.mindrecord.FileWriter`` or ``Dataset.save``,
    by MindSpore or msjax).

    ``MindDataset(dataset_files, columns_list=None, num_parallel_workers=None, shuffle=None,
    num_shards=None, shard_id=None, sampler=None, padded_sample=None, num_padded=None,
    num_samples=None, cache=None)``. One path loads every shard of its data set (from its
    header); a list loads exactly those files. Columns are the schema's fields in name
    order (or ``columns_list``): scalars as 0-d arrays of their type, strings as 0-d
    ``str`` arrays, ``bytes`` as a (1,) ``S`` array, arrays in their schema shape.
    ``shuffle``/``num_shards``/``sampler`` select rows as for every source (shards take
    every ``num_shards``-th row, wrapping around); ``padded_sample`` rows
    (``num_padded`` of them) are appended before sharding.

    ``Shuffle.FILES`` shuffles the file order (rows in file order), ``Shuffle.INFILE`` the rows
    within each file (files in order). Differences from MindSpore: ``Shuffle.PARTIAL`` shuffles
    globally; a shuffled order is msjax's own (seeded by ``ds.config.set_seed``).
    """

    _what = "MindRecord files"

    def __init__(self, dataset_files, columns_list=None, num_parallel_workers=None, shuffle=None,
                 num_shards=None, shard_id=None, sampler=None, padded_sample=None, num_padded=None,
                 num_samples=None, cache=None):
        from ..mindrecord.filereader import open_shards
        from .samplers import Shuffle
        if isinstance(dataset_files, list):
            if not dataset_files:
                raise ValueError("dataset_file should not be empty.")
            files = dataset_files
        elif isinstance(dataset_files, str):
            files = [dataset_files]
        else:
            raise TypeError(f"Argument dataset_files with value {dataset_files} is not of type "
                            "[<class 'str'>, <class 'list'>].")
        for f in files:
            if not isinstance(f, str) or not os.path.isfile(f):
                raise ValueError(f"The file {f} does not exist or permission denied!")
        if columns_list is not None:
            if not isinstance(columns_list, list) or not columns_list:
                raise TypeError(f"Argument columns_list with value {columns_list} is not of type [<class 'list'>].")
        if num_samples and shuffle in (Shuffle.FILES, Shuffle.INFILE):
            raise ValueError("'Shuffle.FILES' or 'Shuffle.INFILE' and 'num_samples' cannot be specified at the "
                             "same time.")
        if num_padded is not None and padded_sample is None:
            raise RuntimeError("padded_sample is needed when num_padded is set.")
        if padded_sample is not None and num_padded is None:
            raise RuntimeError("num_padded is needed when padded_sample is set.")
        if padded_sample is not None and num_shards is None and not isinstance(sampler, _dist_sampler()):
            raise RuntimeError("num_shards is needed when padded_sample is set.")
        file_mode = shuffle if shuffle in (Shuffle.FILES, Shuffle.INFILE) and sampler is None else None
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache)
        self.dataset_files = dataset_files
        self._shards = open_shards(dataset_files)
        if file_mode is not None:
            self.sampler = _FileOrderSampler(file_mode, self._file_sizes(), self.sampler)
        schema = self._shards.schema
        self.columns_list = list(columns_list) if columns_list else []
        for c in self.columns_list:
            if c not in schema:
                raise RuntimeError(f"Invalid data, column name: {c} can not found in schema of MindRecord files.")
        self._columns = self.columns_list or sorted(schema)
        self.padded_sample = padded_sample
        self.num_padded = num_padded or 0
        if padded_sample is not None:
            missing = [c for c in self._columns if c not in padded_sample]
            if missing:
                raise RuntimeError(f"padded_sample should contain every column read, missing: {missing}.")
            shards = num_shards or getattr(sampler, "num_shards", 1)
            if (len(self._shards) + self.num_padded) % shards:
                raise RuntimeError(f"Invalid data, the number of rows ({len(self._shards)}) plus num_padded "
                                   f"({self.num_padded}) must be divisible by num_shards ({shards}).")

    def _col_names(self):
        return list(self._columns)

    def _file_sizes(self):
        counts = [0] * len(self._shards.files)
        for entry in self._shards.index:
            counts[entry[0]] += 1
        return counts

    def _num_rows(self):
        return len(self._shards) + self.num_padded

    def _read(self, i):
        if i >= len(self._shards):
            return [self._padded(c) for c in self._columns]
        raw, blobs = self._shards.read_row(i)
        return [self._shards.column_array(c, raw, blobs) for c in self._columns]

    def _padded(self, name):
        v = self.padded_sample[name]
        spec = self._shards.schema[name]
        if spec["type"] == "bytes" and isinstance(v, (bytes, bytearray)):
            return np.array([bytes(v)])
        if spec["type"] == "string":
            return np.array(str(v))
        return np.asarray(v, dtype=spec["type"])

    def __getitem__(self, index):
        if not isinstance(index, int) or isinstance(index, bool):
            raise TypeError(f"Argument index with value {index} is not of type [<class 'int'>].")
        if index < 0:
            raise ValueError(f"index cannot be negative, but got {index}.")
        return self._read(index)


class _FileOrderSampler:
    """``Shuffle.FILES`` (the files in a random order, each file's rows in order) or
    ``Shuffle.INFILE`` (files in order, each file's rows shuffled) for MindDataset, then the
    sharding/num_samples of the sampler it replaces (a DistributedSampler shards the result)."""

    def __init__(self, mode, sizes, inner):
        from .samplers import Shuffle
        self.mode, self.sizes, self.inner, self._files = mode, sizes, inner, mode == Shuffle.FILES
        self.num_samples = getattr(inner, "num_samples", None)

    def _order(self, rng):
        starts = np.cumsum([0] + self.sizes[:-1])
        blocks = [np.arange(st, st + n, dtype=np.int64) for st, n in zip(starts, self.sizes)]
        if self._files:
            return np.concatenate([blocks[i] for i in rng.permutation(len(blocks))] or [np.zeros(0, np.int64)])
        return np.concatenate([rng.permutation(b) for b in blocks] or [np.zeros(0, np.int64)])

    def _run(self, rng=None):
        return rng if rng is not None else np.random.default_rng(0)

    def _epoch_ids(self, n, rng, epoch=0):
        order = self._order(rng)
        if len(order) < n:                                   # padded samples go last
            order = np.concatenate([order, np.arange(len(order), n, dtype=np.int64)])
        from .samplers import DistributedSampler
        if isinstance(self.inner, DistributedSampler):
            per = -(-n // self.inner.num_shards)
            wrapped = np.resize(order, per * self.inner.num_shards)
            order = wrapped[self.inner.shard_id::self.inner.num_shards]
        if self.num_samples:
            order = order[:self.num_samples]
        return order

    def _count(self, n):
        return len(self._epoch_ids(n, np.random.default_rng(0)))

    def get_num_samples(self):
        return self.num_samples


def _dist_sampler():
    from .samplers import DistributedSampler
    return DistributedSampler


class DatasetCache:
    """A dataset cache-server session. msjax pipelines run in-process, so the cache is
    accepted and has no effect (data is read from the source each epoch)."""

    def __init__(self, session_id, size=0, spilling=False, hostname=None, port=None, num_connections=None,
                 prefetch_size=None):
        if not isinstance(session_id, int):
            raise TypeError(f"Argument session_id with value {session_id} is not of type [<class 'int'>].")
        self.session_id = session_id
        self.size = size
        self.spilling = spilling
        self.hostname = hostname
        self.port = port
        self.num_connections = num_connections
        self.prefetch_size = prefetch_size

    def get_stat(self):
        return {"session_id": self.session_id, "mem_cached": 0, "disk_cached": 0}
