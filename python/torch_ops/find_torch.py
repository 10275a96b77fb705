"""Where the torch that the package will run with keeps its C++ headers and libraries, for
python/CMakeLists.txt (issue 31). Prints four lines: torch's version, its C++ ABI flag
(_GLIBCXX_USE_CXX11_ABI), its include directories and its library directories (comma-separated),
or exits 1 with the reason on stderr.

pip's isolated build environment hides the site-packages of the environment it installs into;
they are added back here (after the build environment's own), so that `pip install .` builds the
operators against the torch of that environment, as `./dev build` does against Debian's."""

import site
import sys

for d in site.getsitepackages():
    if d not in sys.path:
        sys.path.append(d)
try:
    import torch
    from torch.utils import cpp_extension
except Exception as e:  # noqa: BLE001 - any failure means: no torch to build against
    sys.exit(f"no importable torch ({type(e).__name__}: {e})")
print(torch.__version__)
print(int(torch._C._GLIBCXX_USE_CXX11_ABI))
print(",".join(cpp_extension.include_paths()))
print(",".join(cpp_extension.library_paths()))
