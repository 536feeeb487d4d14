import pytest

import msjax as ms


@pytest.fixture(autouse=True)
def _pynative():
    """Every test starts in PYNATIVE_MODE and leaves it so."""
    ms.set_context(mode=ms.PYNATIVE_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


@pytest.fixture(params=["pynative", "graph"])
def mode(request):
    ms.set_context(mode=ms.GRAPH_MODE if request.param == "graph" else ms.PYNATIVE_MODE)
    return request.param
