"""shutil, as the lab has it: copying, moving and removing files and trees on the notebook's
file system (text files: binary ones need `bytes`, which the lab does not have yet)."""

import os


class Error(OSError):
    pass


class SameFileError(Error):
    pass


def copyfile(src, dst, *, follow_symlinks=True):
    src, dst = os.fspath(src), os.fspath(dst)
    if os.path.abspath(src) == os.path.abspath(dst):
        raise SameFileError(f"{src!r} and {dst!r} are the same file")
    with open(src, newline="") as f:
        text = f.read()
    with open(dst, "w", newline="") as f:
        f.write(text)
    return dst


def copy(src, dst, *, follow_symlinks=True):
    dst = os.fspath(dst)
    if os.path.isdir(dst):
        dst = os.path.join(dst, os.path.basename(os.fspath(src)))
    copyfile(src, dst)
    return dst


copy2 = copy


def copytree(src, dst, symlinks=False, ignore=None, copy_function=copy2,
             ignore_dangling_symlinks=False, dirs_exist_ok=False):
    src, dst = os.fspath(src), os.fspath(dst)
    names = os.listdir(src)
    ignored = ignore(src, names) if ignore is not None else set()
    os.makedirs(dst, exist_ok=dirs_exist_ok)
    for name in names:
        if name in ignored:
            continue
        s, d = os.path.join(src, name), os.path.join(dst, name)
        if os.path.isdir(s):
            copytree(s, d, symlinks, ignore, copy_function, dirs_exist_ok=dirs_exist_ok)
        else:
            copy_function(s, d)
    return dst


def rmtree(path, ignore_errors=False, onerror=None):
    path = os.fspath(path)
    try:
        if not os.path.isdir(path):
            if os.path.exists(path):
                raise NotADirectoryError(20, "Not a directory", path)
            raise FileNotFoundError(2, "No such file or directory", path)
        for name in os.listdir(path):
            full = os.path.join(path, name)
            if os.path.isdir(full):
                rmtree(full, ignore_errors, onerror)
            else:
                os.remove(full)
        os.rmdir(path)
    except OSError:
        if not ignore_errors:
            raise


def move(src, dst, copy_function=copy2):
    src, dst = os.fspath(src), os.fspath(dst)
    real_dst = dst
    if os.path.isdir(dst):
        real_dst = os.path.join(dst, os.path.basename(src.rstrip("/")))
        if os.path.exists(real_dst):
            raise Error(f"Destination path '{real_dst}' already exists")
    os.rename(src, real_dst)
    return real_dst
