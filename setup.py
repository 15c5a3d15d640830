"""The optional compiled counting kernel, bleu_impl/fast/_kernel.c (metadata: pyproject.toml).

``optional=True``: where no C compiler or Python headers exist the build warns and goes on,
and bleu_impl counts with its numpy path (bleu_impl/fast/kernel.py).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[Extension("bleu_impl.fast._kernel", ["bleu_impl/fast/_kernel.c"], optional=True)]
)
