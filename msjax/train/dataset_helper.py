"""``DatasetHelper``, ``connect_network_with_dataset`` and ``data_sink``: MindSpore's
device-queue helpers, here plain iteration (as MindSpore does on CPU)."""
from __future__ import annotations

__all__ = ["DatasetHelper", "connect_network_with_dataset", "data_sink"]


class DatasetHelper:
    """Iterate a dataset as tuples of Tensors, ``epoch_num`` epochs."""

    def __init__(self, dataset, dataset_sink_mode=True, sink_size=-1, epoch_num=1):
        self.dataset = dataset
        self._sink_size = dataset.get_dataset_size() if sink_size == -1 else sink_size
        self._iter = dataset.create_tuple_iterator(num_epochs=epoch_num, do_copy=True)

    def __iter__(self):
        for row in self._iter:
            yield tuple(row)

    def __len__(self):
        return self.dataset.get_dataset_size()

    def sink_size(self):
        return self._sink_size

    def types_shapes(self):
        return self.dataset.output_types(), self.dataset.output_shapes()

    def stop_send(self):
        self._iter.stop()

    def release(self):
        self._iter.stop()

    def continue_send(self):
        pass

    def get_data_info(self):
        return self.types_shapes()


def connect_network_with_dataset(network, dataset_helper):
    """MindSpore binds a network to a device queue; msjax feeds data directly, so the
    network is returned unchanged."""
    return network


def data_sink(fn, dataset, sink_size=1, jit_config=None, input_signature=None):
    """A function that, on each call, runs ``fn`` over the next ``sink_size`` batches of
    ``dataset`` (cycling through epochs) and returns the last result."""
    if not callable(fn):
        raise TypeError("For 'data_sink', the argument 'fn' should be callable.")
    if not isinstance(sink_size, int) or sink_size <= 0:
        raise ValueError(f"For 'data_sink', the argument 'sink_size' should be a positive int, but got {sink_size}.")
    state = {"it": None}

    def next_batch():
        while True:
            if state["it"] is None:
                state["it"] = iter(dataset.create_tuple_iterator(num_epochs=-1))
            try:
                return next(state["it"])
            except StopIteration:
                continue

    def sink_fun(*args, **kwargs):
        out = None
        for _ in range(sink_size):
            out = fn(*next_batch())
        return out
    return sink_fun
