#!/usr/bin/env python3
"""Pack or unpack the real-world PTX modules (validation/realworld/ptx.tar.gz <-> ptx/).

The modules are committed as one archive (the folder is git-ignored); `cargo test`, the scorer
and the scripts that read the folder unpack it on first use. The folder's `.packed` stamp is the
archive's CRC-32 and length, the same as warpscope-realworld's `packed::stamp`.

  scripts/realworld/ptx_pack.py unpack   # make ptx/ match the archive (no-op when it does)
  scripts/realworld/ptx_pack.py pack     # after scripts/realworld/build_ptx.sh: archive ptx/*.ptx

`pack` is deterministic (names sorted, times, owners and modes fixed, gzip without a time stamp),
so the archive changes only when a module does.
"""
import gzip
import io
import os
import shutil
import sys
import tarfile
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ARCHIVE = os.path.join(ROOT, "validation/realworld/ptx.tar.gz")
FOLDER = os.path.join(ROOT, "validation/realworld/ptx")
STAMP = ".packed"


def stamp(data):
    return "%08x %d\n" % (zlib.crc32(data) & 0xFFFFFFFF, len(data))


def current(want):
    try:
        with open(os.path.join(FOLDER, STAMP)) as f:
            return f.read() == want
    except OSError:
        return False


def unpack():
    data = open(ARCHIVE, "rb").read()
    want = stamp(data)
    if current(want):
        return
    fresh = FOLDER + ".unpack-%d" % os.getpid()
    shutil.rmtree(fresh, ignore_errors=True)
    os.makedirs(fresh)
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as t:
        for m in t.getmembers():
            if not m.isfile() or "/" in m.name or m.name in (".", ".."):
                sys.exit("ptx_pack.py: unexpected entry %s in the archive" % m.name)
            with open(os.path.join(fresh, m.name), "wb") as out:
                shutil.copyfileobj(t.extractfile(m), out)
    with open(os.path.join(fresh, STAMP), "w") as f:
        f.write(want)
    old = FOLDER + ".old-%d" % os.getpid()
    if os.path.exists(FOLDER):
        os.rename(FOLDER, old)
    os.rename(fresh, FOLDER)
    shutil.rmtree(old, ignore_errors=True)


def pack():
    names = sorted(n for n in os.listdir(FOLDER) if n.endswith(".ptx"))
    raw = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=raw, compresslevel=9, mtime=0) as gz:
        with tarfile.open(fileobj=gz, mode="w", format=tarfile.GNU_FORMAT) as t:
            for n in names:
                data = open(os.path.join(FOLDER, n), "rb").read()
                info = tarfile.TarInfo(n)
                info.size, info.mode, info.mtime = len(data), 0o644, 0
                info.uid = info.gid = 0
                info.uname = info.gname = ""
                t.addfile(info, io.BytesIO(data))
    data = raw.getvalue()
    with open(ARCHIVE, "wb") as f:
        f.write(data)
    with open(os.path.join(FOLDER, STAMP), "w") as f:
        f.write(stamp(data))
    print("%s: %d modules, %d bytes" % (os.path.relpath(ARCHIVE, ROOT), len(names), len(data)))


if __name__ == "__main__":
    if sys.argv[1:] == ["unpack"]:
        unpack()
    elif sys.argv[1:] == ["pack"]:
        pack()
    else:
        sys.exit(__doc__)
