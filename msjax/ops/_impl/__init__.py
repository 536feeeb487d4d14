"""Op implementations, one module per topic (named after MindSpore's op categories); importing
them fills the op registry (``msjax._core.registry``).

Where an op lives:

* ``math``: elementwise arithmetic and unary math, bitwise ops, clamp, complex numbers, and the
  helpers the other modules build on (``_unary``/``_binary``/``_alias``, dtype checks);
  ``truncate``: truncate_div/truncate_mod.
* ``special``: lgamma, digamma, mvlgamma, igamma/igammac, the Bessel functions of the first kind, zeta, polygamma
  (``bessel_second``: K0/K1/K0e/K1e and Y0/Y1).
* ``comparison``: comparisons and logic, the is* predicates, sorting and searching.
* ``reduction``: reductions, scans, statistics, histograms (histc, bincount).
* ``linalg``: matrix products, determinants, solvers, decompositions, norms, kron, einsum, cdist.
* ``creation``: ones/zeros/full/fill, eye, one_hot, range/arange/linspace, tril/triu_indices.
* ``array``: shape and layout, joining and splitting, slicing, dtype queries, diagonals.
* ``indexing``: gather, select and mask, scatter, segments, Inplace*, Tensor-indexing checks.
* ``activation``, ``conv``, ``pooling``, ``normalization``, ``dropout``, ``loss``: the nn ops
  (``conv_lowering``: how each convolution pass is computed on the CPU); ``rnn``: the fused
  recurrent Primitives (DynamicRNN, DynamicGRUV2).
* ``max_unpool``: max_unpool1d/2d/3d, MaxUnpool2D/MaxUnpool3D.
* ``image``: resize, pad, pixel_shuffle, grid_sample, unfold/fold/Im2Col, batch/depth <-> space;
  ``upsample_ext``: mint's interpolate (the Upsample kernels) and UpsampleNearest3DGrad/UpsampleTrilinear3DGrad.
* ``spectral``: the window functions; ``fft``: the FFT family (fft/rfft/hfft and their inverses, 2-D and
  N-D forms, fftshift, fftfreq, FFTWithSize) with MindSpore's backward rules.
* ``random``: random sampling; ``random_samplers``: the candidate samplers, RandpermV2, NonDeterministicInts;
  ``random_cauchy``: Cauchy and Tensor.cauchy;
  ``random_rejection``: RandomGamma, ParameterizedTruncatedNormal.
* ``state``: assign & co, the Scatter*/ScatterNd* ops on Parameters, Print.
* ``optim``, ``sparse_adagrad``, ``clip``, ``detection``: optimizer Primitives, gradient clipping, boxes, NMS and RoIs.
* ``deprecated``: Primitive names MindSpore 2.10 keeps only as deprecated ones (``Gelu``, ``ScalarCast``...);
  ``no_repeat_ngram``: NoRepeatNGram; ``assert_op``: Assert (its condition checked when the program runs).
* ``composite``: HyperMap, vmap, constexpr, Custom, the collective and float-status Primitives.
* ``summary``: the summary Primitives (imported by ``msjax.ops``).
* ``tensor_methods``: Tensor methods with no ``ops`` function (in-place forms, new_*, type_as...).
* ``tensor_dump``: tensordump, TensorDump, DumpGradient (``.npy`` files as MindSpore names them);
  ``tensor_to_tuple``: TensorToTuple; ``alpha_ext``: AddExt/SubExt.
* ``matrix_diag_v3``: MatrixDiagV3/MatrixDiagPartV3/MatrixSetDiagV3 (array_ops' aligned diagonal bands);
  ``sequence_ops``: ``_sequence_ops``' Primitives on tuples and lists; ``grad_prims``: the ``_grad_ops``
  Primitives MindSpore's tests call (LogSoftmaxGrad, StridedSliceGrad...); ``sparse_segment``: the
  SparseSegmentSqrtN/Mean Primitives; ``sparse_dense``: SparseTensorDenseAdd/SparseTensorDenseMatmul/SparseAdd.
* ``dynamic_shape``: ConvertToDynamic and the is_sequence_*_unknown questions (nothing is unknown in msjax).
* ``copy_slices``: TensorCopySlices; ``sparse_csr``: CSRSparseMatrixToSparseTensor; ``sparse_unary``: ops.csr_*/coo_* element-wise.
  ``fractional_pool``: fractional max pooling (nn.FractionalMaxPool2d/3d, FractionalMaxPool3DWithFixedKsize).
"""
from . import math, alpha_ext, special, bessel_second, truncate, comparison, reduction, linalg  # noqa: F401
from . import creation, array, indexing  # noqa: F401
from . import activation, conv, pooling, max_unpool, normalization, dropout, image, spectral, fft, loss, rnn  # noqa: F401
from . import random, random_samplers, random_rejection, random_cauchy, state, optim, clip, detection, composite  # noqa: F401
from . import deprecated, lstm, no_repeat_ngram, assert_op  # noqa: F401
from . import tensor_methods, tensor_dump, function_ext, upsample_ext, sequence_ops, copy_slices, sparse_csr, sparse_unary  # noqa: F401
from . import fractional_pool, sparse_adagrad, sparse_count  # noqa: F401
