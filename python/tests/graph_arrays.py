"""Numpy storages for npusim.run_graph, shared by the tests that run a bundle's graph on
their own arrays."""

import numpy as np

from npusim import generator


def generated_storages(graph):
    """Every storage of a static graph (one C-contiguous 1-D array each), its inputs
    generated as the bundle's generator makes them (bit-identical to the C++ one,
    tests/generator_vectors.json), the rest zeros."""
    storages = [np.zeros(s["elements"], generator.NUMPY_DTYPES[s["dtype"]]) for s in graph["storages"]]
    for spec in graph["inputs"]:
        index = spec["tensor"]["storage"]
        storage = graph["storages"][index]
        storages[index][:] = generator.generate(spec["init"], storage["dtype"], storage["elements"], graph["seed"])
    return storages


def view(storages, tensor):
    """The (writeable) numpy view of a graph tensor reference on its storage."""
    storage = storages[tensor["storage"]]
    return np.lib.stride_tricks.as_strided(storage[tensor["offset"]:], shape=tensor["shape"],
                                           strides=[s * storage.itemsize for s in tensor["stride"]])
