"""The OpenCV-backed vision kernels beyond the golden cases (``tests/golden/cases_vision_cv.py``
compares them with MindSpore 2.10 bit for bit): the same pixels on worker threads (OpenCV's
IPP switch is per thread), Normalize's uint8 table equal to its float32 arithmetic for every
value, and the errors of unsupported inputs."""
import concurrent.futures

import numpy as np
import pytest

import msjax.dataset.vision as V


def _img(h=57, w=83, seed=0):
    return np.random.default_rng(seed).integers(0, 256, (h, w, 3)).astype(np.uint8)


def test_resize_same_pixels_on_a_fresh_thread():
    # bicubic and float bilinear differ by one unit with IPP on; every thread must switch it off
    img = _img()
    ops = [V.Resize((40, 33), V.Inter.BICUBIC), V.Resize((30, 70)), V.Resize((90, 20), V.Inter.AREA)]
    srcs = [img, img.astype(np.float32) / 255, img]
    here = [op(x) for op, x in zip(ops, srcs)]
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        there = pool.submit(lambda: [op(x) for op, x in zip(ops, srcs)]).result()
    for a, b in zip(here, there):
        assert a.dtype == b.dtype and np.array_equal(a, b)


@pytest.mark.parametrize("channels,mean,std", [
    (3, [0.485 * 255, 0.456 * 255, 0.406 * 255], [0.229 * 255, 0.224 * 255, 0.225 * 255]),
    (None, [3.3], [0.7]), (1, [100.1], [3.0]), (4, [1, 2, 3, 4], [5, 6, 7, 8]), (3, [10.5], [2.5]),
    (6, [0, 1, 2, 3, 4, 5], [1.5] * 6)])
def test_normalize_uint8_table_is_the_float32_arithmetic(channels, mean, std):
    ramp = np.arange(256, dtype=np.uint8)[None, :]
    img = np.repeat(ramp, 3, 0) if channels is None else np.repeat(np.repeat(ramp, 3, 0)[..., None], channels, 2)
    out = V.Normalize(mean, std)(img)
    ref = (img.astype(np.float32) - np.asarray(mean, np.float32)) / np.asarray(std, np.float32)
    assert out.dtype == np.float32 and out.shape == img.shape
    assert np.array_equal(out.view(np.uint32), ref.astype(np.float32).view(np.uint32))


def test_resize_unsupported_dtype_and_pilcubic():
    with pytest.raises(RuntimeError, match="Resize"):
        V.Resize((5, 5))(np.zeros((9, 9, 3), np.int32))       # OpenCV (and MindSpore): nearest only
    assert V.Resize((5, 5), V.Inter.NEAREST)(np.ones((9, 9, 3), np.int32)).dtype == np.int32
    with pytest.raises(RuntimeError, match="PILCUBIC only supports image with 3 channels"):
        V.Resize((5, 5), V.Inter.PILCUBIC)(np.zeros((9, 9), np.uint8))
    with pytest.raises(NotImplementedError, match="PILCUBIC"):
        V.Resize((5, 5), V.Inter.PILCUBIC)(np.zeros((9, 9, 3), np.float32))


def test_resize_keeps_a_single_channel_axis_and_bool():
    img = _img()[..., :1]
    assert V.Resize((20, 10))(img).shape == (20, 10, 1)
    b = V.Resize((20, 10), V.Inter.NEAREST)(img[..., 0] > 128)
    assert b.dtype == np.bool_ and np.array_equal(b, V.Resize((20, 10), V.Inter.NEAREST)(img[..., 0]) > 128)


def test_decode_garbage_is_mindspore_error():
    with pytest.raises(RuntimeError, match="Decode: image decode failed"):
        V.Decode()(np.frombuffer(b"not an image at all", np.uint8))


def test_rotate_multiples_of_90_are_exact():
    img = _img(7, 9)
    assert np.array_equal(V.Rotate(90, expand=True)(img), np.rot90(img))
    assert np.array_equal(V.Rotate(180)(img), img[::-1, ::-1])
