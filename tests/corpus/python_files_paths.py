# Theme: sys / os.path / pathlib / open / csv / glob / shutil - version checks,
# sys.stdout.write, sys.argv, os.path helpers, pathlib.Path operations on a
# scratch folder created relative to the cwd, text files written and read
# line by line, csv round trip, glob, and cleanup with shutil.rmtree.
import csv
import glob
import os
import os.path
import shutil
import sys
from pathlib import Path

WORKDIR = "scratch_files_demo"


def write_metrics(path, rows):
    with open(path, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["epoch", "loss", "acc"])
        writer.writerows(rows)


def read_metrics(path):
    with open(path, newline="") as f:
        reader = csv.reader(f)
        header = next(reader)
        return header, [row for row in reader]


def main():
    # sys
    print("py3:", sys.version_info >= (3, 0), "| >= 3.8:", sys.version_info >= (3, 8),
          "| < 4:", sys.version_info < (4,), "| major:", sys.version_info.major)
    print("script name:", os.path.basename(sys.argv[0]), "| extra args:", sys.argv[1:])
    sys.stdout.write("written with sys.stdout.write\n")
    n = sys.stdout.write("abc\n")
    print("write returned:", n)
    print("to stderr (not in stdout)", file=sys.stderr)
    print("maxsize is big:", sys.maxsize > 2**31, "| recursion limit positive:", sys.getrecursionlimit() > 0)
    print("sep/end:", end=" ")
    print("a", "b", "c", sep="-", end="!\n")

    # os.path (pure string manipulation)
    p = os.path.join("data", "images", "cat_001.png")
    print("join:", p)
    print("splitext:", os.path.splitext(p), os.path.splitext("archive.tar.gz"))
    print("basename/dirname:", os.path.basename(p), os.path.dirname(p))
    print("split:", os.path.split(p))
    print("isabs:", os.path.isabs(p), "| normpath:", os.path.normpath("a/./b/../c"))
    print("exists (not yet):", os.path.exists(WORKDIR))

    # pathlib
    root = Path(WORKDIR)
    root.mkdir(exist_ok=True)
    ckpt = root / "checkpoints" / "model_epoch3.pt"
    print("path parts:", ckpt.parts)
    print("name/suffix/stem:", ckpt.name, ckpt.suffix, ckpt.stem)
    print("parent:", ckpt.parent.as_posix(), "| parents[1]:", ckpt.parents[1].as_posix())
    print("with_suffix:", ckpt.with_suffix(".pth").name, "| with_name:", ckpt.with_name("best.pt").as_posix())
    print("suffixes:", Path("data.tar.gz").suffixes, "| is_absolute:", ckpt.is_absolute())
    ckpt.parent.mkdir(parents=True, exist_ok=True)
    ckpt.write_text("fake weights\n")
    print("exists after write:", ckpt.exists(), ckpt.is_file(), ckpt.parent.is_dir())
    print("read_text:", repr(ckpt.read_text()))

    notes = root / "notes.txt"
    with open(notes, "w") as f:
        f.write("first line\n")
        f.write("second line\n")
        print("third line via print", file=f)
        f.writelines(["fourth\n", "fifth\n"])
    with open(notes) as f:
        for i, line in enumerate(f, 1):
            print(f"  {i}: {line.rstrip()}")
    with open(notes, "a") as f:
        f.write("appended\n")
    with open(notes) as f:
        lines = f.readlines()
    print("line count:", len(lines), "| last:", lines[-1].strip())
    with open(notes) as f:
        print("read(5):", repr(f.read(5)), "| readline:", repr(f.readline()))
    print("splitlines:", notes.read_text().splitlines()[:2])

    rows = [(1, 0.93, 0.61), (2, 0.51, 0.80), (3, 0.33, 0.88)]
    metrics = root / "metrics.csv"
    write_metrics(metrics, rows)
    header, data = read_metrics(metrics)
    print("csv header:", header)
    print("csv rows (strings):", data)
    parsed = [(int(e), float(l), float(a)) for e, l, a in data]
    print("round trip equal:", parsed == rows)
    with open(metrics, newline="") as f:
        for rec in csv.DictReader(f):
            print(f"  epoch {rec['epoch']}: acc={rec['acc']}")
    quoted = root / "quoted.csv"
    with open(quoted, "w", newline="") as f:
        csv.writer(f).writerow(["name, with comma", 'say "hi"', "plain"])
    print("quoted raw:", quoted.read_text().strip())
    with open(quoted, newline="") as f:
        print("quoted parsed:", next(csv.reader(f)))

    for i in range(3):
        (root / f"log_{i}.txt").write_text(f"log {i}\n")
    print("glob *.txt:", sorted(glob.glob(os.path.join(WORKDIR, "*.txt"))))
    print("glob **/*.pt:", sorted(glob.glob(os.path.join(WORKDIR, "**", "*.pt"), recursive=True)))
    print("Path.glob log_*:", sorted(p.name for p in root.glob("log_*.txt")))
    print("iterdir:", sorted(p.name for p in root.iterdir()))
    print("rglob *.pt:", [p.relative_to(root).as_posix() for p in root.rglob("*.pt")])
    print("os.listdir:", sorted(os.listdir(WORKDIR)))
    print("sizes:", {p.name: p.stat().st_size for p in sorted(root.glob("log_*.txt"))})

    (root / "log_0.txt").unlink()
    print("after unlink:", (root / "log_0.txt").exists(), sorted(p.name for p in root.glob("log_*.txt")))
    (root / "log_1.txt").rename(root / "renamed.txt")
    print("after rename:", sorted(p.name for p in root.iterdir() if p.is_file()))
    try:
        open(root / "missing.txt")
    except FileNotFoundError as e:
        print("FileNotFoundError errno:", e.errno, "| filename:", Path(e.filename).name)

    shutil.rmtree(WORKDIR)
    print("cleaned up:", not os.path.exists(WORKDIR), not root.exists())


if __name__ == "__main__":
    main()
