"""``mindspore.run_check``: checks the installation by running one op and says so
in MindSpore's two lines. It stands above every layer (it uses the package's version
strings and an op), so it lives at the top of the package."""


def run_check():
    """``mindspore.run_check``: multiplies two Tensors and prints MindSpore's two lines,
    naming msjax and the JAX platform the product ran on."""
    import numpy as np
    import msjax as ms   # the top of the package: run_check stands above every layer
    try:
        print("MindSpore version: ", ms.mindspore_version, f"(msjax {ms.__version__})")
        x = ms.Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        y = ms.Tensor(np.array([4.0, 5.0, 6.0]), ms.float32)
        out = ms.ops.Mul()(x, y)
        if not np.array_equal(out.asnumpy(), np.array([4.0, 10.0, 18.0], np.float32)):
            raise RuntimeError(f"1*4, 2*5, 3*6 gave {out.asnumpy()}")
        platform = next(iter(out._data.devices())).platform.upper()
        print("The result of multiplication calculation is correct, msjax has been installed on platform "
              f"[{platform}] successfully!")
    except Exception as e:  # MindSpore prints the failure instead of raising
        print("MindSpore running check failed.")
        print(str(e))
