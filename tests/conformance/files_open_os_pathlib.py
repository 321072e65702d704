# Files as tutorials use them: open() in its text modes with newline translation, reading line
# by line, os and os.path, pathlib, glob, shutil, and the OSError subclasses with their errno.
import glob
import os
import shutil
from pathlib import Path

root = Path("files_demo")
root.mkdir()
print(root, repr(root), root.exists(), root.is_dir(), os.path.isdir("files_demo"), type(root).__name__ == "PosixPath" or True)

log = root / "train.log"
with open(log, "w") as f:
    n = f.write("epoch 1\n")
    f.write("epoch 2\n")
    print("loss", 0.5, file=f)
    f.writelines(["a\n", "b"])
print(n, f.closed, log.read_text().splitlines(), os.path.getsize(log), log.stat().st_size)
with open(log) as f:
    print(repr(f.readline()), repr(f.read(3)), repr(f.readline()), f.readlines())
with open(log, "a") as f:
    f.write("\nappended\n")
with open(log) as f:
    print([line.rstrip("\n") for line in f][-2:])
with open(root / "crlf.txt", "w", newline="") as f:
    f.write("one\r\ntwo\rthree\n")
with open(root / "crlf.txt") as f:
    print(repr(f.read()))
with open(root / "crlf.txt", newline="") as f:
    print(f.readlines())
with open(root / "win.txt", "w", newline="\r\n") as f:
    f.write("x\ny\n")
print(repr(open(root / "win.txt", newline="").read()), repr((root / "win.txt").read_text()))
with open(root / "new.txt", "x") as f:
    f.write("made")
for attempt in [lambda: open(root / "new.txt", "x"), lambda: open(root / "nope.txt"),
                lambda: open(root), lambda: os.mkdir(root), lambda: os.rmdir(root),
                lambda: os.listdir(log), lambda: open(log, "rw"), lambda: open(log).write("x"),
                lambda: root.mkdir(), lambda: os.remove(root / "gone.txt")]:
    try:
        attempt()
    except (OSError, ValueError) as e:
        print(type(e).__name__, e.args, getattr(e, "errno", None), Path(getattr(e, "filename", None) or "-").name)
f = open(log)
f.close()
try:
    f.read()
except ValueError as e:
    print("ValueError:", e)

print(os.path.join("a", "b", "/c", "d"), os.path.join("a/", "b"), os.path.split("/x/y/"), os.path.split("x"))
print(os.path.splitext(".bashrc"), os.path.splitext("a.b/c"), os.path.splitext("f.tar.gz"), os.path.basename("a/b/"))
print(os.path.normpath("/../a//b/./c/.."), os.path.normpath(""), os.path.normpath("../x/../../y"), os.path.dirname("/a"))
print(os.path.relpath("a/b/c", "a"), os.path.relpath("a", "a/b/c"), os.path.isabs("/x"), os.path.abspath("k").endswith("/k"))
os.makedirs("files_demo/deep/er")
os.makedirs("files_demo/deep/er", exist_ok=True)
(root / "deep" / "er" / "w.pt").write_text("w")
(root / "deep" / "m.pt").write_text("m")
print(sorted(os.listdir(root)), sorted(os.listdir("files_demo/deep")))
print([(d, sorted(ds), sorted(fs)) for d, ds, fs in sorted(os.walk("files_demo/deep"))])
print(sorted(glob.glob("files_demo/*.txt")), sorted(glob.glob("files_demo/**/*.pt", recursive=True)))
print(sorted(glob.glob("files_demo/**/*.pt")), sorted(glob.glob("files_demo/?ew.*")), glob.glob("files_demo/none*"))
print(sorted(p.as_posix() for p in root.rglob("*.pt")), sorted(p.name for p in root.glob("*.t?t")))
print(sorted(str(p.relative_to(root)) for p in root.glob("**/*.pt")), sorted(x.name for x in root.iterdir()))

p = Path("runs") / "exp1" / "model.best.pt"
print(p.parts, p.name, p.stem, p.suffix, p.suffixes, p.parent, p.parents[1], list(map(str, p.parents)))
print(p.with_suffix(".pth"), p.with_name("last.pt"), p.with_stem("x"), Path("/a/b").is_absolute(), Path("a") / "b" / Path("c"))
print(Path("a//b/./c"), Path(""), Path("/"), Path("/").parent, Path("a").parent, "x" / Path("y"), Path("a", "b") == Path("a/b"))
print(sorted([Path("b"), Path("a/z"), Path("a")]), Path("a/b.txt").match("*.txt"), {Path("a"): 1}[Path("a")], os.fspath(p))
try:
    p.relative_to("other")
except ValueError as e:
    print("ValueError:", e)

shutil.copy(log, root / "copy.log")
shutil.copytree(root / "deep", root / "deep2")
moved = shutil.move(str(root / "copy.log"), str(root / "deep2"))
print(moved, sorted(os.listdir(root / "deep2")), (root / "deep2" / "copy.log").read_text() == log.read_text())
(root / "new.txt").rename(root / "renamed.txt")
(root / "renamed.txt").unlink()
(root / "renamed.txt").unlink(missing_ok=True)
print(sorted(os.listdir(root)), (root / "renamed.txt").exists())
shutil.rmtree(root)
print(root.exists(), os.path.exists("files_demo"))
