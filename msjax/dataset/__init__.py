"""``mindspore.dataset`` on numpy: sources, pipeline operations, samplers, readers.

``import msjax.dataset as ds`` (or ``import mindspore.dataset as ds`` under
``python -m msjax run``) gives ``GeneratorDataset``, ``NumpySlicesDataset``,
``MnistDataset``, ``Cifar10Dataset`` ..., the pipeline methods (``batch``, ``map``,
``shuffle``, ``repeat``, ...), samplers, ``ds.config`` and the ``vision``/``transforms``
operations. Iterators give msjax Tensors (or numpy arrays with ``output_numpy=True``).
See ``engine.py`` for how the pipeline runs and where it differs from MindSpore.
"""
from . import config, samplers, transforms, vision
from .engine import (BatchDataset, BatchInfo, ConcatDataset, Dataset, DictIterator, FilterDataset, MapDataset,
                     ProjectDataset, RenameDataset, RepeatDataset, ShuffleDataset, SkipDataset, TakeDataset,
                     TupleIterator, ZipDataset, zip)
from .readers import (Cifar10Dataset, Cifar100Dataset, DatasetCache, FakeImageDataset, FashionMnistDataset,
                      ImageFolderDataset, KMnistDataset, MindDataset, MnistDataset)
from .samplers import (DistributedSampler, IterSampler, PKSampler, RandomSampler, Sampler, SequentialSampler, Shuffle,
                       SubsetRandomSampler, SubsetSampler, WeightedRandomSampler)
from .sources import GeneratorDataset, NumpySlicesDataset, PaddedDataset, RandomDataset, Schema
from .text import CSVDataset, TextFileDataset
from .callbacks import DSCallback, WaitedDSCallback
from .graph import GraphData, OutputFormat

MappableDataset = Dataset
SourceDataset = Dataset

__all__ = ["GeneratorDataset", "NumpySlicesDataset", "PaddedDataset", "MnistDataset", "FashionMnistDataset",
           "KMnistDataset", "Cifar10Dataset", "Cifar100Dataset", "ImageFolderDataset", "FakeImageDataset",
           "MindDataset", "DatasetCache", "RandomDataset", "TextFileDataset", "CSVDataset", "DSCallback", "WaitedDSCallback", "Dataset", "Schema",
           "Sampler", "SequentialSampler", "RandomSampler",
           "SubsetRandomSampler", "SubsetSampler", "DistributedSampler", "WeightedRandomSampler", "PKSampler",
           "Shuffle", "zip", "config", "vision", "transforms", "BatchInfo", "GraphData", "OutputFormat"]
