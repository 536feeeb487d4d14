"""The order of MindSpore 2.10's CPU ``TopK`` kernel among equal values.

The kernel (``sorted=True``) sorts the row's indices with ``std::stable_sort`` when ``k`` is more
than half the row, so equal values keep the lower index first, as ``lax.top_k``. Otherwise it runs
``std::nth_element`` (libstdc++'s introselect: median-of-three pivots, an unguarded Hoare
partition, a heap select past ``2 * log2(n)`` rounds, an insertion sort under four elements) and
then ``std::stable_sort`` on the first ``k``, so which of several equal values are kept, and in
which order, is wherever introselect left them. ``host_topk`` replays those algorithms on NumPy
rows (comparator ``a > b``); ``needs_replay`` says whether a row's answer can differ from the
stable one (equal values among the top ``k`` or at its edge, or NaN). What differs from MindSpore:
a row with NaN follows libstdc++'s steps but ``stable_sort``'s merge is replaced by NumPy's stable
sort, whose order among NaN may differ.
"""
from __future__ import annotations

import numpy as np


def _median_to_first(a, v, result, i, j, k):
    """libstdc++'s ``__move_median_to_first`` (comparator ``>``)."""
    x, y, z = v[a[i]], v[a[j]], v[a[k]]
    if x > y:
        pick = j if y > z else (k if x > z else i)
    elif x > z:
        pick = i
    else:
        pick = k if y > z else j
    a[result], a[pick] = a[pick], a[result]


def _partition(a, v, first, last, pivot):
    """libstdc++'s ``__unguarded_partition``."""
    p = v[a[pivot]]
    while True:
        while v[a[first]] > p:
            first += 1
        last -= 1
        while p > v[a[last]]:
            last -= 1
        if not first < last:
            return first
        a[first], a[last] = a[last], a[first]
        first += 1


def _insertion_sort(a, v, first, last):
    for i in range(first + 1, last):
        val = a[i]
        if v[val] > v[a[first]]:
            a[first + 1:i + 1] = a[first:i]
            a[first] = val
            continue
        j = i
        while v[val] > v[a[j - 1]]:
            a[j] = a[j - 1]
            j -= 1
        a[j] = val


def _adjust_heap(a, v, first, hole, length, value):
    """libstdc++'s ``__adjust_heap`` then ``__push_heap`` on ``a[first:first + length]``."""
    top, child = hole, hole
    while child < (length - 1) // 2:
        child = 2 * (child + 1)
        if v[a[first + child]] > v[a[first + child - 1]]:
            child -= 1
        a[first + hole] = a[first + child]
        hole = child
    if length % 2 == 0 and child == (length - 2) // 2:
        child = 2 * (child + 1)
        a[first + hole] = a[first + child - 1]
        hole = child - 1
    parent = (hole - 1) // 2
    while hole > top and v[a[first + parent]] > v[value]:
        a[first + hole] = a[first + parent]
        hole, parent = parent, (parent - 1) // 2
    a[first + hole] = value


def _heap_select(a, v, first, middle, last):
    length = middle - first
    if length >= 2:
        for parent in range((length - 2) // 2, -1, -1):
            _adjust_heap(a, v, first, parent, length, a[first + parent])
    for i in range(middle, last):
        if v[a[i]] > v[a[first]]:
            value, a[i] = a[i], a[first]
            _adjust_heap(a, v, first, 0, length, value)


def nth_element(v, nth):
    """The index order libstdc++'s ``std::nth_element(idx, idx + nth, idx + n, greater)`` leaves
    on ``idx = 0..n-1`` keyed by the list ``v``."""
    n = len(v)
    a = list(range(n))
    if nth >= n:
        return a
    first, last, depth = 0, n, 2 * (n.bit_length() - 1)
    while last - first > 3:
        if depth == 0:
            _heap_select(a, v, first, nth + 1, last)
            a[first], a[nth] = a[nth], a[first]
            return a
        depth -= 1
        mid = first + (last - first) // 2
        _median_to_first(a, v, first, first + 1, mid, last - 1)
        cut = _partition(a, v, first + 1, last, first)
        if cut <= nth:
            first = cut
        else:
            last = cut
    _insertion_sort(a, v, first, last)
    return a


def needs_replay(row, k):
    """Whether the kernel's answer for ``row`` can differ from a stable top ``k``."""
    if row.dtype.kind == "f" and np.isnan(row).any():
        return True
    top = np.sort(row)[::-1][:k + 1]
    return bool((top[1:] == top[:-1]).any())


def host_topk(x, k):
    """``(values, int32 indices)`` of ``TopK(sorted=True)(x, k)`` on a NumPy array, last axis."""
    rows = x.reshape(-1, x.shape[-1])
    n = rows.shape[-1]
    idx = np.empty((rows.shape[0], k), np.int32)
    for r, row in enumerate(rows):
        if k > int(n * 0.5) or not needs_replay(row, k):
            order = np.argsort(-row.astype(np.float64), kind="stable")[:k]
        else:
            picked = np.asarray(nth_element(row.tolist(), k)[:k])
            order = picked[np.argsort(-row[picked].astype(np.float64), kind="stable")]
        idx[r] = order
    idx = idx.reshape(x.shape[:-1] + (k,))
    return np.take_along_axis(x, idx, -1), idx
