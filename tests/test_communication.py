"""msjax.communication on one process (MindSpore's error cases are golden cases in the misc suite)."""
import pytest

import msjax as ms
from msjax import communication as comm


def test_init_single_process():
    comm.init()
    assert comm.GlobalComm.INITED
    assert (comm.get_rank(), comm.get_group_size(), comm.get_local_rank()) == (0, 1, 0)
    comm.init("mccl")
    with pytest.raises(RuntimeError, match="'backend_name' should be 'mccl'"):
        comm.init("nccl")
    with pytest.raises(TypeError):
        comm.init(1)
    assert ms.get_context("device_target") == "CPU"
    comm.release()
    assert not comm.GlobalComm.INITED
