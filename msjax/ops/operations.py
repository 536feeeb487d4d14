"""``mindspore.ops.operations`` (``P``): the Primitive classes."""
from .._core.registry import OPS as _OPS, Primitive, primitive_class as _primitive_class  # noqa: F401

for _d in _OPS.values():
    if _d.primitive:
        globals()[_d.primitive] = _primitive_class(_d)
from ._impl.composite import AllGather, AllGatherV, AllReduce, Broadcast, Custom, ReduceScatter, FloatStatus, GetNext, HookBackward, NPUAllocFloatStatus, NPUClearFloatStatus, NPUGetFloatStatus, ReduceOp, _VirtualDataset, identity  # noqa: E402,F401,E501  (Primitives with their own constructors)
from ._impl.summary import HistogramSummary, ImageSummary, ScalarSummary, TensorSummary  # noqa: E402,F401
from ._impl.tensor_to_tuple import TensorToTuple  # noqa: E402,F401
from ._impl.morph import Morph  # noqa: E402,F401
from ._impl.tensor_dump import DumpGradient, TensorDump  # noqa: E402,F401
from ._impl.matrix_diag_v3 import MatrixDiagPartV3, MatrixDiagV3, MatrixSetDiagV3  # noqa: E402,F401
from ._impl.sparse_segment import SparseSegmentMeanWithNumSegments, SparseSegmentSqrtN, SparseSegmentSqrtNWithNumSegments  # noqa: E402,F401,E501
from ._impl.sparse_dense import SparseAdd, SparseTensorDenseAdd, SparseTensorDenseMatmul  # noqa: E402,F401
