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


def test_collectives_on_one_process():
    from msjax import ops
    x = ms.Tensor([[1.0, 2.0], [3.0, 4.0]])
    for out in (ops.AllReduce()(x), ops.AllReduce(ops.ReduceOp.PROD)(x), ops.AllGather()(x),
                ops.ReduceScatter()(x), ops.Broadcast(0)((x,))[0]):
        assert out.asnumpy().tolist() == [[1.0, 2.0], [3.0, 4.0]]
    assert ops.AllGatherV()(ms.Tensor([1.0, 2.0, 3.0]), [2]).asnumpy().tolist() == [1.0, 2.0]
    with pytest.raises(TypeError, match="'root_rank' must be int"):
        ops.Broadcast("0")
    with pytest.raises(TypeError, match="'group' must be str"):
        ops.AllGather(group=1)
    with pytest.raises(ValueError, match="'op' must be one of"):
        ops.ReduceScatter("mean")
    with pytest.raises(ValueError, match="one entry per rank"):
        ops.AllGatherV()(ms.Tensor([1.0]), [1, 1])


def test_world_group_queries_and_aliases():
    assert comm.get_group_rank_from_world_rank(0, comm.HCCL_WORLD_COMM_GROUP) == 0
    assert comm.get_world_rank_from_group_rank(comm.NCCL_WORLD_COMM_GROUP, 0) == 0
    with pytest.raises(ValueError, match="out of range"):
        comm.get_group_rank_from_world_rank(1, comm.HCCL_WORLD_COMM_GROUP)
    comm.create_group("all_ranks", [0])          # every rank: the world group under another name
    try:
        assert comm.get_rank("all_ranks") == 0 and comm.get_group_size("all_ranks") == 1
        assert comm.get_process_group_ranks("all_ranks") == [0]
    finally:
        comm.destroy_group("all_ranks")
    with pytest.raises(ValueError, match="does not exist"):
        comm.get_rank("all_ranks")
    with pytest.raises(RuntimeError, match="sub-groups are not supported"):
        comm.create_group("part", [0, 1])


def test_device_num_and_rank_follow_mindspore():
    from msjax.parallel import _utils
    ms.set_auto_parallel_context(device_num=8, global_rank=3)
    try:
        assert (_utils._get_device_num(), _utils._get_global_rank()) == (1, 0)    # stand-alone
        ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL)
        assert (_utils._get_device_num(), _utils._get_global_rank()) == (8, 3)    # as set
        ms.reset_auto_parallel_context()
        ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL)
        comm.init()
        assert (_utils._get_device_num(), _utils._get_global_rank()) == (1, 0)    # the group's
    finally:
        comm.release()
        ms.reset_auto_parallel_context()


def test_comm_func_on_one_process():
    from msjax.communication import comm_func
    t = ms.Tensor([[1.0, 2.0]])
    out, handle = comm_func.all_reduce(t)
    assert out.asnumpy().tolist() == [[1.0, 2.0]] and handle is None
    out, handle = comm_func.all_gather_into_tensor(t, async_op=True)
    assert out.asnumpy().tolist() == [[1.0, 2.0]] and handle.wait()
    assert comm_func.reduce_scatter_tensor(t, "max")[0].asnumpy().tolist() == [[1.0, 2.0]]
    assert comm_func.broadcast(t, 0).asnumpy().tolist() == [[1.0, 2.0]]
    comm_func.barrier()
    with pytest.raises(TypeError, match="op value must be one of"):
        comm_func.all_reduce(t, "avg")
    with pytest.raises(RuntimeError, match="comm_func.send: point-to-point"):
        comm_func.send(t)
