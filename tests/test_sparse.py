"""CSR conversions (MindSpore 2.10's CPU build cannot run them: 'Response is
empty'), checked against dense numpy references."""
import numpy as np

import msjax as ms


def test_coo_csr_round_trip_matches_dense():
    idx = np.array([[0, 1], [2, 0], [0, 3]], np.int32)
    vals = np.array([1.0, 2.0, 3.0], np.float32)
    dense = np.zeros((3, 4), np.float32)
    dense[idx[:, 0], idx[:, 1]] = vals
    coo = ms.COOTensor(ms.Tensor(idx), ms.Tensor(vals), (3, 4))
    csr = coo.to_csr()
    np.testing.assert_array_equal(csr.indptr.asnumpy(), [0, 2, 2, 3])
    np.testing.assert_array_equal(csr.indices.asnumpy(), [1, 3, 0])
    np.testing.assert_array_equal(csr.to_dense().asnumpy(), dense)
    np.testing.assert_array_equal(csr.to_coo().to_dense().asnumpy(), dense)
