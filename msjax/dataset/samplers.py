"""Samplers: which row indices a random-access source reads, epoch by epoch.

A sampler is a description; each iterator makes a ``_Run`` of it (MindSpore builds
its C++ samplers per iterator) and asks for one epoch of indices at a time
(``_epoch_ids(n, run, epoch)``, ``n`` the number of rows of the source), so a
shuffled sampler gives a new order every epoch and the same orders again after
``ds.config.set_seed``. Semantics follow MindSpore 2.10 (``DistributedSampler`` pads a
shard by wrapping around; ``num_samples`` caps every sampler; a child sampler's output
is what the parent samples from).

The random samplers draw as MindSpore's C++ samplers do (``_stdrandom``: the same
Mersenne Twister, seeds and libstdc++ algorithms), so with a seed set they give
MindSpore's indices: ``RandomSampler`` reshuffles its previous order with seed + epoch,
``SubsetRandomSampler`` reshuffles it with the seed, ``WeightedRandomSampler`` draws with
the seed every epoch (the same indices), ``PKSampler`` draws each class's rows with
replacement (also without ``shuffle``) with seed + epoch, ``DistributedSampler`` shuffles
with the seed read when it was made, plus one (also without ``set_seed``: MindSpore's
default 5489). With no seed set, each iterator draws fresh seeds, as MindSpore does.
"""
from __future__ import annotations

import numbers
from enum import Enum

import numpy as np

from . import _stdrandom as _std

__all__ = ["Sampler", "BuiltinSampler", "SequentialSampler", "RandomSampler", "SubsetRandomSampler",
           "SubsetSampler", "DistributedSampler", "WeightedRandomSampler", "PKSampler", "IterSampler", "Shuffle",
           "select_sampler"]

INT64_MAX = 9223372036854775807


class Shuffle(str, Enum):
    FALSE = "false"
    ADAPTIVE = "adaptive"
    GLOBAL = "global"
    PARTIAL = "partial"
    FILES = "files"
    INFILE = "infile"


def _check_num_samples(num_samples):
    if num_samples is not None:
        if not isinstance(num_samples, int) or isinstance(num_samples, bool):
            raise TypeError(f"num_samples must be integer but was: {num_samples}.")
        if num_samples < 0 or num_samples > INT64_MAX:
            raise ValueError(f"num_samples exceeds the boundary between 0 and {INT64_MAX}(INT64_MAX)!")


def _engine_seed(rng):
    """MindSpore's ``GetSeed()``: the configured seed, or a random one when none is set."""
    from . import config
    seed = config.get_seed()
    if seed == config.DEFAULT_SEED:
        return int(rng.integers(0, 1 << 32)) if rng is not None else config._base_seed()
    return seed


class _Run:
    """One iterator's instance of a sampler tree: the iterator's numpy generator and the
    state each sampler keeps from one epoch to the next (its seed, its current order)."""

    def __init__(self, rng=None):
        self.rng = rng if rng is not None else np.random.default_rng(0)
        self._state = {}

    def state(self, sampler, n):
        st = self._state.get(id(sampler))
        if st is None or st["n"] != n:
            st = self._state[id(sampler)] = {"n": n, "seed": sampler._run_seed(self.rng)}
        return st


def _reshuffled(st, epoch, start, seed_of):
    """The order of epoch ``epoch`` kept in a run's state ``st``: ``start`` shuffled with
    ``seed_of(0)``, each later epoch ``k`` reshuffling the previous order with ``seed_of(k)``
    (``None``: keep it), as MindSpore's samplers reshuffle their order in place."""
    if "ids" not in st or st["epoch"] > epoch:
        st["ids"], st["epoch"] = list(start), -1
    while st["epoch"] < epoch:
        st["epoch"] += 1
        seed = seed_of(st["epoch"])
        if seed is not None:
            _std.shuffle(st["ids"], _std.MT19937(seed))
    return st["ids"]


class BuiltinSampler:
    """Base of MindSpore's built-in samplers."""

    def __init__(self, num_samples=None):
        self.child_sampler = None
        self.num_samples = num_samples

    def add_child(self, sampler):
        if self.child_sampler is not None:
            raise RuntimeError("Cannot add child sampler, this sampler already has a child.")
        self.child_sampler = sampler

    def get_child(self):
        return self.child_sampler

    def get_num_samples(self):
        if self.child_sampler is not None:
            child = self.child_sampler.get_num_samples()
            if self.num_samples is not None:
                return min(self.num_samples, child) if child is not None else self.num_samples
            return child
        return self.num_samples

    def is_shuffled(self):
        return False

    def is_sharded(self):
        return False

    def get_shuffle_mode(self):
        return Shuffle.FALSE

    # --- msjax: one epoch of indices ------------------------------------------------
    def _run(self, rng=None):
        """A fresh per-iterator instance (``rng``: the iterator's numpy generator)."""
        return _Run(rng)

    def _run_seed(self, rng):
        return _engine_seed(rng)

    def _epoch_ids(self, n, run, epoch=0):
        """Indices for one epoch over ``n`` rows (after the child sampler, if any)."""
        if self.child_sampler is not None:
            base = np.asarray(self.child_sampler._epoch_ids(n, run, epoch), np.int64)
            own = np.asarray(self._ids(len(base), run, epoch), np.int64)
            return base[own] if len(own) else own
        return self._ids(n, run, epoch)

    def _ids(self, n, run, epoch=0):
        raise NotImplementedError

    def _count(self, n):
        """Number of indices one epoch yields (``None``: only known by sampling)."""
        if self.child_sampler is not None:
            c = self.child_sampler._count(n)
            return None if c is None else self._own_count(c)
        return self._own_count(n)

    def _own_count(self, n):
        return len(self._ids(n, _Run()))

    def _cap(self, k):
        return k if self.num_samples is None or self.num_samples == 0 else min(k, self.num_samples)


class SequentialSampler(BuiltinSampler):
    """Rows in order, from ``start_index``."""

    def __init__(self, start_index=None, num_samples=None):
        if start_index is not None:
            if not isinstance(start_index, int) or isinstance(start_index, bool):
                raise TypeError(f"start_index must be integer but was: {start_index}.")
            if start_index < 0:
                raise ValueError(f"start_index should be a positive integer value or 0, but got: {start_index}.")
        _check_num_samples(num_samples)
        self.start_index = start_index
        super().__init__(num_samples)

    def _ids(self, n, run, epoch=0):
        start = self.start_index or 0
        if start > n and n > 0:
            raise RuntimeError(f"Invalid start_index: {start}, it should be less than the dataset size {n}.")
        return np.arange(start, start + self._own_count(n), dtype=np.int64)

    def _own_count(self, n):
        return self._cap(max(n - (self.start_index or 0), 0))


class RandomSampler(BuiltinSampler):
    """A random permutation each epoch (or draws with replacement)."""

    def __init__(self, replacement=False, num_samples=None, shuffle=Shuffle.GLOBAL):
        if not isinstance(replacement, bool):
            raise TypeError(f"replacement must be a boolean value but was: {replacement}.")
        _check_num_samples(num_samples)
        self.replacement = replacement
        self.shuffle = shuffle
        self.reshuffle_each_epoch = True
        super().__init__(num_samples)

    def is_shuffled(self):
        return True

    def get_shuffle_mode(self):
        return Shuffle.GLOBAL

    def _ids(self, n, run, epoch=0):
        k = self._own_count(n)
        if not n:
            return np.zeros(0, np.int64)
        st = run.state(self, n)
        step = epoch if self.reshuffle_each_epoch else 0
        if self.replacement:      # seed + epoch, then uniform_int_distribution(0, n - 1) per sample
            g = _std.MT19937(st["seed"] + step)
            return np.array([_std.uniform_int(g, 0, n - 1) for _ in range(k)], np.int64)
        # 0..n-1 shuffled with the seed, reshuffled with seed + epoch every later epoch
        ids = _reshuffled(st, epoch, range(n),
                          lambda e: st["seed"] + e if e == 0 or self.reshuffle_each_epoch else None)
        return np.asarray(ids[:k], np.int64)

    def _own_count(self, n):
        return self._cap(n)


class SubsetSampler(BuiltinSampler):
    """The given indices, in the given order."""

    def __init__(self, indices, num_samples=None):
        if isinstance(indices, np.ndarray):
            indices = indices.tolist()
        if not isinstance(indices, (list, tuple)):
            indices = [indices]
        for i in indices:
            if not isinstance(i, numbers.Integral) or isinstance(i, bool):
                raise TypeError(f"SubsetSampler: Type of indices element must be int, but got list[0]: {i}, "
                                f"type: {type(i)}.")
        _check_num_samples(num_samples)
        self.indices = list(indices)
        super().__init__(num_samples)

    def _ids(self, n, run, epoch=0):
        ids = np.asarray(self.indices[:self._own_count(n)], np.int64)
        bad = ids[(ids < 0) | (ids >= n)] if n else ids
        if bad.size:
            raise RuntimeError(f"Sample ID ({int(bad[0])}) is out of bound, expected range [0, {n - 1}].")
        return ids

    def _own_count(self, n):
        return self._cap(len(self.indices))


class SubsetRandomSampler(SubsetSampler):
    """The given indices in a random order each epoch."""

    def is_shuffled(self):
        return True

    def _ids(self, n, run, epoch=0):
        # the first num_samples indices, shuffled with the seed; each later epoch reshuffles
        # the previous order with the seed again (a new random seed when none is set)
        st = run.state(self, n)
        ids = np.asarray(_reshuffled(st, epoch, self.indices[:self._own_count(n)],
                                     lambda e: st["seed"] if e == 0 else self._run_seed(run.rng)), np.int64)
        bad = ids[(ids < 0) | (ids >= n)]
        if bad.size:
            raise RuntimeError(f"Sample ID ({int(bad[0])}) is out of bound, expected range [0, {n - 1}].")
        return ids


class DistributedSampler(BuiltinSampler):
    """Shard ``shard_id`` of ``num_shards``: every ``num_shards``-th row of the
    (shuffled) order, padded by wrapping around so all shards have equal size."""

    def __init__(self, num_shards, shard_id, shuffle=True, num_samples=None, offset=-1):
        if not isinstance(num_shards, int) or isinstance(num_shards, bool):
            raise TypeError(f"num_shards must be integer but was: {num_shards}.")
        if not isinstance(shard_id, int) or isinstance(shard_id, bool):
            raise TypeError(f"shard_id must be integer but was: {shard_id}.")
        if not isinstance(shuffle, bool) and shuffle not in tuple(Shuffle):
            raise TypeError(f"shuffle must be a boolean value or valid shuffle mode but was: {shuffle}.")
        _check_num_samples(num_samples)
        if not isinstance(offset, int):
            raise TypeError(f"offset must be integer but was: {offset}.")
        if num_shards <= 0:
            raise ValueError(f"num_shards should be a positive integer value, but got: {num_shards}.")
        if shard_id < 0 or shard_id >= num_shards:
            raise ValueError(f"shard_id should in range [0, {num_shards - 1}], but got: {shard_id}.")
        self.num_shards = num_shards
        self.shard_id = shard_id
        if isinstance(shuffle, bool):
            shuffle = Shuffle.GLOBAL if shuffle else Shuffle.FALSE
        self.shuffle = shuffle
        # MindSpore reads the configured seed (5489 when none is set) here and shuffles
        # with it plus one: every shard sees the same order, also without set_seed
        from . import config
        self.seed = config.get_seed()
        self.offset = offset
        super().__init__(num_samples)

    def _run_seed(self, rng):
        return self.seed + 1

    def is_shuffled(self):
        return self.shuffle != Shuffle.FALSE

    def is_sharded(self):
        return self.num_shards > 1

    def get_shuffle_mode(self):
        return self.shuffle

    def set_offset(self, offset):
        self.offset = offset
        return self

    def _ids(self, n, run, epoch=0):
        per = -(-n // self.num_shards) if n else 0
        if self.shuffle != Shuffle.FALSE and n:
            # epoch k reshuffles the previous order with seed + k
            st = run.state(self, n)
            order = np.asarray(_reshuffled(st, epoch, range(n), lambda e: st["seed"] + e), np.int64)
        else:
            order = np.arange(n)
        pos = (np.arange(per) * self.num_shards + self.shard_id) % max(n, 1)
        return order[pos].astype(np.int64)[:self._own_count(n)]

    def _own_count(self, n):
        return self._cap(-(-n // self.num_shards) if n else 0)


class WeightedRandomSampler(BuiltinSampler):
    """Indices drawn with probabilities proportional to ``weights``."""

    def __init__(self, weights, num_samples=None, replacement=True):
        if not isinstance(weights, (list, tuple, np.ndarray)):
            weights = [weights]
        weights = [float(w) for w in weights]
        if not weights:
            raise ValueError("weights size should not be 0")
        if any(w < 0 for w in weights):
            raise ValueError("weights should not contain negative numbers.")
        if sum(weights) == 0:
            raise ValueError("elements of weights should not be all zeros.")
        if num_samples is not None:
            _check_num_samples(num_samples)
            if num_samples <= 0:
                raise ValueError(f"num_samples should be a positive integer value, but got: {num_samples}.")
        if not isinstance(replacement, bool):
            raise TypeError(f"replacement must be a boolean value but was: {replacement}.")
        self.weights = weights
        self.replacement = replacement
        super().__init__(num_samples)

    def is_shuffled(self):
        return True

    def _ids(self, n, run, epoch=0):
        w = self.weights
        k = self._own_count(n)
        if len(w) > n:
            raise RuntimeError("Invalid parameter, size of sample weights must be less than or equal to num of data, "
                               "otherwise might cause generated id out of bound or other errors, but got weight "
                               f"size: {len(w)}, num of data: {n}")
        if not self.replacement and len(w) < k:
            raise RuntimeError("Invalid parameter, without replacement, weight size must be greater than or equal to "
                               f"num_samples, but got weight size: {len(w)}, num_samples: {k}")
        # every epoch reseeds with the seed (a new random one when none is set)
        st = run.state(self, n)
        g = _std.MT19937(st["seed"] if epoch == 0 else self._run_seed(run.rng))
        if self.replacement:      # std::discrete_distribution
            draw = _std.discrete_sampler(w)
            return np.array([draw(g) for _ in range(k)], np.int64)
        # one pass: exponential keys over the weights, the k smallest
        keys = []
        for i, wi in enumerate(w):
            e = _std.exponential(g)
            keys.append((e / wi if wi else float("inf"), i))
        keys.sort()
        return np.array([i for _, i in keys[:k]], np.int64)

    def _own_count(self, n):
        return self._cap(n)


class PKSampler(BuiltinSampler):
    """``num_val`` samples of each class (needs the source's label column)."""

    def __init__(self, num_val, num_class=None, shuffle=False, class_column="label", num_samples=None):
        if not isinstance(num_val, int):
            raise TypeError(f"num_val must be integer but was: {num_val}.")
        if num_class is not None:
            raise NotImplementedError("Not supported to specify num_class for PKSampler.")
        if not isinstance(shuffle, bool):
            raise TypeError(f"shuffle must be a boolean value but was: {shuffle}.")
        _check_num_samples(num_samples)
        self.num_val = num_val
        self.shuffle = shuffle
        self.class_column = class_column
        self._labels = None   # set by sources that know their labels
        super().__init__(num_samples)

    def is_shuffled(self):
        return self.shuffle

    def _ids(self, n, run, epoch=0):
        if self._labels is None:
            raise RuntimeError("PKSampler needs a dataset with a label column (MnistDataset, Cifar10Dataset, "
                               "ImageFolderDataset, ...).")
        labels = np.asarray(self._labels).reshape(-1)
        classes = np.unique(labels).tolist()
        rows = {c: np.flatnonzero(labels == c).tolist() for c in classes}
        # MindSpore: the classes in order (shuffled once with the seed when shuffle=True),
        # then num_val rows of each class drawn with replacement; epoch k draws with seed + k
        st = run.state(self, n)
        g = _std.MT19937(st["seed"] + epoch)
        if "classes" not in st:
            st["classes"] = _std.shuffle(classes, g if epoch == 0 else _std.MT19937(st["seed"])) \
                if self.shuffle else classes
        out = []
        for i in range(self._own_count(n)):
            members = rows[st["classes"][i // self.num_val]]
            out.append(members[_std.uniform_int(g, 0, len(members) - 1)])
        return np.asarray(out, np.int64)

    def _own_count(self, n):
        if self._labels is None:
            return self._cap(n)
        return self._cap(len(np.unique(np.asarray(self._labels))) * self.num_val)


class Sampler(BuiltinSampler):
    """Base class for user samplers: override ``__iter__`` to yield indices;
    ``self.dataset_size`` holds the number of rows of the source."""

    def __init__(self, num_samples=None):
        super().__init__(num_samples)
        self.dataset_size = 0
        self.child_sampler = None
        if self.num_samples is None and hasattr(self, "__len__"):
            self.num_samples = len(self)

    def __iter__(self):
        raise NotImplementedError

    def reset(self):
        pass

    def _handshake(self, ds_size):
        self.dataset_size = ds_size

    def get_indices(self):
        out = []
        for idx in self:
            out.append(idx)
            if self.num_samples is not None and len(out) >= self.num_samples:
                break
        arr = np.asarray(out)
        if arr.dtype == object:
            raise RuntimeError("Fetched indices can not be converted to a valid ndarray.")
        return arr

    def _ids(self, n, run, epoch=0):
        self._handshake(n)
        return np.asarray(self.get_indices(), np.int64).reshape(-1)

    def _count(self, n):
        if self.child_sampler is not None:
            c = self.child_sampler._count(n)
            return None if c is None else len(self._ids(c, None))
        if self.num_samples is not None:    # MindSpore counts it without a pass over the sampler
            return self.num_samples
        return len(self._ids(n, None))

    def get_num_samples(self):
        if self.num_samples is not None:
            return self.num_samples
        return None


class IterSampler(Sampler):
    """Any iterable of indices used as a sampler."""

    def __init__(self, sampler, num_samples=None):
        if num_samples is None and hasattr(sampler, "__len__"):
            num_samples = len(sampler)
        super().__init__(num_samples=num_samples)
        self.sampler = sampler

    def __iter__(self):
        return iter(self.sampler)


def _is_iterable(obj):
    """MindSpore's check, which calls ``iter(obj)`` (a user's ``__iter__`` runs: it may reseed)."""
    try:
        iter(obj)
    except TypeError:
        return False
    return True


def select_sampler(num_samples, input_sampler, shuffle, num_shards, shard_id):
    """The sampler a source uses for its arguments (MindSpore's rules)."""
    if input_sampler is not None:
        if isinstance(input_sampler, BuiltinSampler) and not isinstance(input_sampler, Sampler) and \
                any(arg is not None for arg in (num_shards, shard_id, shuffle, num_samples)):
            raise ValueError(
                f"Conflicting arguments during sampler assignments. num_samples: {num_samples}, num_shards: "
                f"{num_shards}, shard_id: {shard_id}, shuffle: {shuffle}.")
        if isinstance(input_sampler, BuiltinSampler):
            return input_sampler
        if not isinstance(input_sampler, str) and isinstance(input_sampler, (np.ndarray, list, tuple)):
            return SubsetSampler(input_sampler, num_samples)
        if isinstance(input_sampler, int) and not isinstance(input_sampler, bool):
            return SubsetSampler([input_sampler])
        if not isinstance(input_sampler, str) and _is_iterable(input_sampler):
            return IterSampler(input_sampler, num_samples)   # a sequence of indices iterates by __getitem__
        raise TypeError(f"Unsupported sampler object of type ({type(input_sampler)})")
    if shuffle is None or shuffle is True or (shuffle not in (False, Shuffle.FALSE)):
        if num_shards is not None:
            return DistributedSampler(num_shards, shard_id, shuffle=True, num_samples=num_samples)
        if num_samples is not None:
            return RandomSampler(replacement=True, num_samples=num_samples)
        return RandomSampler(num_samples=num_samples)
    if num_shards is not None:
        return DistributedSampler(num_shards, shard_id, shuffle=False, num_samples=num_samples)
    return SequentialSampler(num_samples=num_samples)
