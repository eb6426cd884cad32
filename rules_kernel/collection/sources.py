"""What an import reads: folders (walked), archives (.zip, .tar.gz...) and record files, as
`Source`s: a file on disk read by its path, or an archive member's bytes read in memory.

An archive member's name is untrusted data, never a path: nothing is ever extracted, the name
only labels the member in reports ("games.zip!kif/game1.kif") and its suffix says whether it
is a record file. Members that are links, devices or other special files, whose name is not
a plain relative path (absolute, with '..', a drive), that declare or decompress to more than
`MAX_MEMBER_BYTES` (a zip bomb), or that come after `MAX_ARCHIVE_BYTES` decompressed or
`MAX_MEMBERS` members in one archive are not read and are reported (`Problem`). An archive
inside an archive is not opened (reported).
"""

from __future__ import annotations

import os
import re
import stat
import tarfile
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from rules_kernel.core import RulesError
from rules_kernel.records import one_line

#: a member of an archive is read whole into memory: at most this many bytes decompressed
MAX_MEMBER_BYTES = 256 * 1024 * 1024
#: at most this many bytes decompressed from one archive (all its members together)
MAX_ARCHIVE_BYTES = 4 * 1024 * 1024 * 1024
#: at most this many members of one archive are looked at
MAX_MEMBERS = 200_000

#: the names of record files (a folder's other files are passed over, not reported); any file
#: named on the command line is read whatever its name
RECORD_SUFFIXES = (".jsonl", ".json", ".ndjson", ".pgn", ".kif", ".kifu", ".ki2", ".ki2u", ".csa", ".txt")
ARCHIVE_SUFFIXES = (".zip", ".tar.gz", ".tgz", ".tar", ".tar.bz2", ".tar.xz")
_CHUNK = 1024 * 1024
_DRIVE = re.compile(r"^[A-Za-z]:")


class CollectionError(RulesError):
    """A collection that cannot be made or opened (the output exists, not a collection, a
    worker died...): said in one line."""


@dataclass(frozen=True)
class Source:
    """One record file to read: `path` (a regular file on disk) or `data` (a member's bytes);
    `label` names it in reports."""

    label: str
    path: Path | None = None
    data: bytes | None = None


@dataclass(frozen=True)
class Problem:
    """Something not imported, and where: a bad game (file, line, ply), a member refused."""

    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message


@dataclass(frozen=True)
class Skipped:
    """A file or member passed over because its name is not a record file's (not a problem)."""

    label: str


def is_archive(name: str) -> bool:
    return name.lower().endswith(ARCHIVE_SUFFIXES)


def is_record_name(name: str) -> bool:
    return name.lower().endswith(RECORD_SUFFIXES)


def sources(inputs: list[str | os.PathLike[str]]) -> Iterator[Source | Problem | Skipped]:
    """Every record file of `inputs` (folders walked in name order, archives opened, files
    taken as they are), with a Problem for everything refused."""
    for given in inputs:
        path = Path(given)
        if path.is_dir():
            yield from _folder(path)
        elif is_archive(path.name):
            yield from archive_members(path)
        elif path.is_file():
            yield Source(str(path), path=path)
        else:
            yield Problem(str(path), "no such file or folder, or not a regular file")


def _folder(root: Path) -> Iterator[Source | Problem | Skipped]:
    """A folder's record files and archives, recursively, in name order; hidden entries (.git,
    an import's partial folder) and collections are passed over, links are not followed
    (reported)."""
    for folder, dirs, files in os.walk(root, followlinks=False):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        if "collection.json" in files and "games.parquet" in files:
            dirs[:] = []  # a collection made before (its collection.json is no record file)
            yield Skipped(folder)
            continue
        for name in sorted(files):
            if name.startswith("."):
                continue
            path = Path(folder, name)
            label = str(path)
            if path.is_symlink():
                yield Problem(label, "a symbolic link: not followed")
            elif is_archive(name):
                yield from archive_members(path)
            elif not is_record_name(name):
                yield Skipped(label)
            elif not path.is_file():
                yield Problem(label, "not a regular file: not read")
            else:
                yield Source(label, path=path)


def archive_members(path: Path) -> Iterator[Source | Problem | Skipped]:
    """The record files in a .zip or tar archive, read in memory (never extracted)."""
    if path.name.lower().endswith(".zip"):
        yield from _zip_members(path)
    else:
        yield from _tar_members(path)


def _zip_members(path: Path) -> Iterator[Source | Problem | Skipped]:
    archive = str(path)
    try:
        with zipfile.ZipFile(path) as zipped:
            infos = zipped.infolist()
            if len(infos) > MAX_MEMBERS:
                yield Problem(archive, f"{len(infos):,} members; only the first {MAX_MEMBERS:,} are read")
            total = 0
            for info in infos[:MAX_MEMBERS]:
                if info.is_dir():
                    continue
                label = _label(archive, info.filename)
                mode = info.external_attr >> 16
                refused = _refusal(info.filename, mode, info.file_size)
                if refused == "skip":
                    yield Skipped(label)
                    continue
                if refused:
                    yield Problem(label, refused)
                    continue
                try:
                    with zipped.open(info) as stream:
                        data = _bounded(stream)
                except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, RuntimeError) as exc:
                    # a damaged member, an unknown compression, a password
                    yield Problem(label, f"cannot be read from the archive ({_why(exc)})")
                    continue
                if data is None:
                    yield Problem(label, _too_big("decompresses to"))
                    continue
                total += len(data)
                if total > MAX_ARCHIVE_BYTES:
                    yield Problem(archive, _archive_too_big())
                    return
                yield Source(label, data=data)
    except (zipfile.BadZipFile, OSError, EOFError) as exc:
        yield Problem(archive, f"not a readable zip archive ({_why(exc)})")


def _tar_members(path: Path) -> Iterator[Source | Problem | Skipped]:
    archive = str(path)
    try:
        # "r:*": plain, gzip, bzip2 or xz, told by content; members streamed in order
        with tarfile.open(path, mode="r:*") as tarred:
            count = 0
            for member in tarred:
                count += 1
                if count > MAX_MEMBERS:
                    yield Problem(archive, f"more than {MAX_MEMBERS:,} members; the rest are not read")
                    return
                if member.isdir():
                    continue
                # checked before the archive's reader passes over this member's bytes
                if member.offset_data + member.size > MAX_ARCHIVE_BYTES:
                    yield Problem(archive, _archive_too_big())
                    return
                label = _label(archive, member.name)
                refused = _tar_refusal(member)
                if refused == "skip":
                    yield Skipped(label)
                    continue
                if refused:
                    yield Problem(label, refused)
                    continue
                stream = tarred.extractfile(member)
                data = _bounded(stream) if stream is not None else None
                if data is None:
                    yield Problem(label, _too_big("holds"))
                    continue
                yield Source(label, data=data)
    except (tarfile.TarError, OSError, EOFError, zlib.error) as exc:
        # a damaged or truncated archive: what was read before is kept
        yield Problem(archive, f"not a readable tar archive, or it ends early ({_why(exc)})")


def _tar_refusal(member: tarfile.TarInfo) -> str | None:
    if member.issym() or member.islnk():
        return f"a link (to {one_line(member.linkname, limit=80)!r}): not followed"
    if not member.isreg():
        return "a device, pipe or other special file: not read"
    return _refusal(member.name, stat.S_IFREG, member.size)


def _refusal(name: str, mode: int, size: int) -> str | None:
    """Why a member is not read (None: it is read; "skip": not a record file's name)."""
    if stat.S_ISLNK(mode):
        return "a symbolic link: not followed"
    if mode and stat.S_IFMT(mode) and not stat.S_ISREG(mode):
        return "a device, pipe or other special file: not read"
    if not _plain_name(name):
        return "its name is not a plain relative path (absolute, '..', a drive): refused"
    if is_archive(name):
        return "an archive inside an archive: not opened (unpack it and import the inner one)"
    if not is_record_name(name):
        return "skip"
    if size > MAX_MEMBER_BYTES:
        return _too_big("declares")
    return None


def _plain_name(name: str) -> bool:
    """A member name that names a file under the archive's own folder and nothing else; the
    name is only ever a label here, but a name that climbs out is a hostile archive's sign."""
    if not name or "\x00" in name or name.startswith(("/", "\\")) or _DRIVE.match(name):
        return False
    return ".." not in re.split(r"[/\\]", name)


def _bounded(stream: IO[bytes]) -> bytes | None:
    """A member's bytes, read in chunks; None once more than MAX_MEMBER_BYTES came out (the
    declared size of a zip member may lie: what decompresses is counted)."""
    parts, size = [], 0
    while True:
        chunk = stream.read(_CHUNK)
        if not chunk:
            return b"".join(parts)
        size += len(chunk)
        if size > MAX_MEMBER_BYTES:
            return None
        parts.append(chunk)


def _label(archive: str, name: str) -> str:
    return f"{archive}!{one_line(name, limit=200)}"


def _too_big(verb: str) -> str:
    return f"{verb} more than {MAX_MEMBER_BYTES:,} bytes: not read (a zip bomb, or split the file)"


def _archive_too_big() -> str:
    return f"more than {MAX_ARCHIVE_BYTES:,} bytes decompressed: the rest of the archive is not read"


def _why(exc: BaseException) -> str:
    return one_line(f"{type(exc).__name__}: {exc}", limit=200)
