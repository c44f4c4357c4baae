"""The last part of the emulation script (emulation.py joins the parts): with ``COURSE_EMULATE=tpu``
or ``gpu`` set, start the emulation that the parts before this one define, then delete their names,
so that a notebook's namespace keeps none of them. A kernel that cannot emulate as asked stops."""


def _course_emulation_mode():
    import os

    return os.environ.get("COURSE_EMULATE", "").lower()


if _course_emulation_mode() in ("tpu", "gpu"):
    try:
        _course_emulate_precision(_course_emulation_mode())  # noqa: F821  (emulate_precision.py)
    except RuntimeError as _course_exc:
        if "get_ipython" not in globals():
            raise
        # An IPython start-up file: IPython would print the error and run the notebook anyway,
        # without emulation. A kernel that cannot grade as asked stops instead, saying why.
        import os as _os
        import sys as _sys

        print(f"emulate_precision.py: {_course_exc}", file=_sys.__stderr__, flush=True)
        _os._exit(3)
del _course_emulate_precision, _course_without_fma, _course_emulation_mode  # noqa: F821
del _course_chip_compiler, _course_chip_dots, _course_install_lowering, _course_fold_constants, _course_untouched  # noqa: F821
