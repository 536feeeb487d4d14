"""Op implementations, one module per family; importing them fills the registry."""
from . import array, creation, indexing, clip, math, activation  # noqa: F401
from . import conv, pooling, dropout, image, normalization  # noqa: F401,E402
from . import comparison, special, reduction, linalg  # noqa: F401,E402
from . import loss  # noqa: F401,E402
from . import composite, random, state  # noqa: F401  (ops_array: state, random ops, functional plumbing)
from . import optim  # noqa: F401,E402  (optimizer primitives: ApplyMomentum, ApplyRMSProp...)
from . import detection  # noqa: F401,E402  (BoundingBoxEncode/Decode, IOU, NMSWithMask)
from . import tensor_methods  # noqa: F401,E402  (in-place and torch-style Tensor methods)
from . import spectral  # noqa: F401,E402
