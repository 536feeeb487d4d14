"""``mindspore.common.file_system.FileSystem`` (tests/st/export_and_load/test_ckpt_with_crc.py opens a
checkpoint with it to append bytes): Python's ``open`` with MindSpore's modes; a checkpoint saved with
``crc_check=True`` and then appended to is refused by ``load_checkpoint(crc_check=True)``."""
import numpy as np
import pytest

import msjax as ms
from msjax.common.file_system import FileSystem


def test_basic_backend():
    fs = FileSystem()
    assert (fs.create, fs.create_args, fs.open, fs.open_args, fs.backend) == (open, ("ab",), open, ("rb",), "basic")


def test_appended_crc_checkpoint_is_refused(tmp_path):
    net = ms.nn.Dense(2, 3)
    path = str(tmp_path / "crc.ckpt")
    ms.save_checkpoint(net, path, crc_check=True)
    loaded = ms.load_checkpoint(path, crc_check=True)
    np.testing.assert_array_equal(loaded["weight"].asnumpy(), net.weight.asnumpy())
    fs = FileSystem()
    with fs.create(path, *fs.create_args) as f:
        f.write(b"111")
    with fs.open(path, *fs.open_args) as f:
        assert f.read()[-3:] == b"111"
    with pytest.raises(ValueError):
        ms.load_checkpoint(path, crc_check=True)
