"""marrow: skinned, animated and morphing 3D models (glTF 2.0, and every format Assimp reads).

    import marrow
    m = marrow.load("Fox.gltf")
    a = m.instance()
    a.play("Run")
    a.update(1 / 60)
    a.positions(mesh=0, part=0)      # numpy (N, 3) float32, posed

See docs/python.md for every function, the lifetimes of the arrays returned and the errors.
"""


class LoadError(Exception):
    """A file marrow refused to load.

    code: the kebab-case reason (docs/errors.md), e.g. "invalid-node-graph", "io-error".
    message: what was wrong and where, naming the file and the offending object.
    """

    def __init__(self, code, message):
        super().__init__(code, message)
        self.code = code
        self.message = message

    def __str__(self):
        return f"[{self.code}] {self.message}"


# The extension looks LoadError up here when it translates a C++ ImportError, so it is defined
# before the extension is imported.
from ._marrow import (  # noqa: E402
    Graph,
    GraphInstance,
    Instance,
    Model,
    MotionDatabase,
    MotionMatcher,
    convert,
    load,
    load_graph,
    pose,
    render,
    retarget,
    sample,
)

__all__ = ["Graph", "GraphInstance", "Instance", "LoadError", "Model", "MotionDatabase", "MotionMatcher", "convert", "load", "load_graph",
           "pose", "render", "retarget", "sample"]
