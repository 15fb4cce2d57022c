"""`-o FILE` / `--out FILE` in both command lines (`referee.outfile`; issue 23, defect 2).

Every case runs through a real command of each program: `tournament standings -o` and `referee play --out`.
A device is never written by the old code's rename in these tests: they make their own character device
(the same as /dev/null) in a temporary folder, and use /dev/null itself only when not root, where no
rename into /dev can succeed.
"""

from __future__ import annotations

import os
import stat
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli import app as referee_app
from referee.outfile import write_file
from tests.tournament.tlib import cli
from tournament.cli.app import app as tournament_app

runner = CliRunner()
Writer = Callable[[Path], bytes]  # writes to the path and returns what it meant to write


@pytest.fixture(scope="module")
def event_db(tmp_path_factory: pytest.TempPathFactory) -> str:
    db = str(tmp_path_factory.mktemp("db") / "t.db")
    cli(db, "create", "ev", "--seed", "1")
    cli(db, "register", "ev", "ann", "bob", "cat")
    cli(db, "pair", "ev")
    return db


def standings(event_db: str) -> Writer:
    def write(target: Path) -> bytes:
        result = runner.invoke(tournament_app, ["standings", "ev", "--format", "csv", "-o", str(target), "--db", event_db])
        assert result.exit_code == 0, result.stderr
        return runner.invoke(tournament_app, ["standings", "ev", "--format", "csv", "--db", event_db]).stdout.encode()

    return write


def play(target: Path) -> bytes:
    result = runner.invoke(referee_app, ["play", "cardwars", "--seed", "3", "--out", str(target)])
    assert result.exit_code == 0, result.stderr
    return runner.invoke(referee_app, ["play", "cardwars", "--seed", "3"]).stdout_bytes


@pytest.fixture(params=["tournament standings -o", "referee play --out"])
def writer(request: pytest.FixtureRequest, event_db: str) -> Writer:
    return standings(event_db) if request.param.startswith("tournament") else play


def test_a_new_file_is_written_whole_with_the_usual_permissions(writer: Writer, tmp_path: Path) -> None:
    target = tmp_path / "out"
    wanted = writer(target)
    assert target.read_bytes() == wanted
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~umask  # not the temporary file's 0600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_a_file_replaced_keeps_its_permissions(writer: Writer, tmp_path: Path) -> None:
    target = tmp_path / "out"
    target.write_bytes(b"old")
    target.chmod(0o640)
    wanted = writer(target)
    assert target.read_bytes() == wanted and stat.S_IMODE(target.stat().st_mode) == 0o640


def test_a_symlink_at_the_old_temporary_name_is_not_followed(writer: Writer, tmp_path: Path) -> None:
    # Issue 23: FILE.tmp was opened by name, so a link planted there had its target overwritten (fails on b515822).
    victim = tmp_path / "victim"
    victim.write_bytes(b"precious")
    (tmp_path / "out.tmp").symlink_to(victim)
    target = tmp_path / "out"
    wanted = writer(target)
    assert victim.read_bytes() == b"precious"
    assert (tmp_path / "out.tmp").is_symlink() and target.read_bytes() == wanted


def test_the_temporary_file_is_unpredictable_and_exclusive(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Whatever name it takes, it is created with O_EXCL and O_NOFOLLOW: a link or file already there is never opened.
    import tempfile

    names = iter(["planted", "fresh"])
    monkeypatch.setattr(tempfile, "_get_candidate_names", lambda: names)
    victim = tmp_path / "victim"
    victim.write_bytes(b"precious")
    (tmp_path / ".out.planted.tmp").symlink_to(victim)
    write_file(tmp_path / "out", b"data")
    assert victim.read_bytes() == b"precious" and (tmp_path / "out").read_bytes() == b"data"
    assert (tmp_path / ".out.planted.tmp").is_symlink() and not (tmp_path / ".out.fresh.tmp").exists()


def test_a_named_pipe_is_written_not_replaced(writer: Writer, tmp_path: Path) -> None:
    # Issue 23: the rename turned a FIFO into a regular file (fails on b515822: the reader waits for ever,
    # bounded here by its timeout, and the FIFO is gone).
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    received: list[bytes] = []

    def read() -> None:
        fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # never blocks, so a failed test cannot hang here
        chunks = []
        with os.fdopen(fd, "rb", buffering=0) as stream:
            for _ in range(400):
                try:
                    chunk = stream.read(65536)
                except BlockingIOError:
                    chunk = None
                if chunk == b"" and chunks:
                    break
                if chunk:
                    chunks.append(chunk)
                threading.Event().wait(0.025)
        received.append(b"".join(chunks))

    reader = threading.Thread(target=read)
    reader.start()
    threading.Event().wait(0.1)  # the reader holds the pipe open before the writer comes
    wanted = writer(fifo)
    reader.join(timeout=15)
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert received == [wanted]


@pytest.fixture
def char_device(tmp_path: Path) -> Iterator[Path]:
    """A character device that discards what it is given: a node like /dev/null of our own as root, else /dev/null."""
    if os.geteuid() != 0:
        yield Path("/dev/null")
        return
    node = tmp_path / "null"
    try:
        os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except (PermissionError, OSError) as exc:
        pytest.skip(f"cannot make a device node here: {exc}")
    yield node


def test_a_device_is_written_not_replaced(writer: Writer, char_device: Path) -> None:
    # Issue 23: as root, `standings -o /dev/full` replaced the device with a CSV (fails on b515822).
    before = char_device.lstat()
    writer(char_device)
    after = char_device.lstat()
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev and after.st_ino == before.st_ino


def test_a_full_device_is_a_one_line_error(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        node = tmp_path / "full"
        try:
            os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 7))
        except OSError as exc:
            pytest.skip(f"cannot make a device node here: {exc}")
    else:
        node = Path("/dev/full")
    result = runner.invoke(referee_app, ["play", "cardwars", "--seed", "3", "--out", str(node)])
    assert result.exit_code == 2 and result.stderr == f"referee: {node}: No space left on device\n"
    assert stat.S_ISCHR(node.lstat().st_mode)


def test_dash_is_stdout(event_db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # where a file called - would appear
    to_file = runner.invoke(tournament_app, ["standings", "ev", "--format", "csv", "-o", "-", "--db", event_db])
    plain = runner.invoke(tournament_app, ["standings", "ev", "--format", "csv", "--db", event_db])
    assert to_file.exit_code == 0 and to_file.stdout == plain.stdout and "wrote" not in to_file.stderr
    played = runner.invoke(referee_app, ["play", "cardwars", "--seed", "3", "--out", "-"])
    assert played.stdout_bytes == runner.invoke(referee_app, ["play", "cardwars", "--seed", "3"]).stdout_bytes
    assert list(tmp_path.iterdir()) == []


def test_a_symlink_at_the_file_is_written_through(writer: Writer, tmp_path: Path) -> None:
    # T-68: the link stays a link; the file it names gets the output, replaced whole in its own folder.
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    real = elsewhere / "real"
    real.write_bytes(b"old")
    link = tmp_path / "link"
    link.symlink_to(real)
    wanted = writer(link)
    assert link.is_symlink() and real.read_bytes() == wanted
    assert sorted(p.name for p in elsewhere.iterdir()) == ["real"]
    dangling = tmp_path / "dangling"
    dangling.symlink_to(elsewhere / "new")
    wanted = writer(dangling)
    assert dangling.is_symlink() and (elsewhere / "new").read_bytes() == wanted


def test_a_failed_write_leaves_the_file_as_it_was(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "out"
    target.write_bytes(b"old")

    def broken(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken)
    with pytest.raises(OSError):
        write_file(target, b"new")
    assert target.read_bytes() == b"old" and sorted(p.name for p in tmp_path.iterdir()) == ["out"]


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can give a file to another user")
def test_a_file_of_another_user_replaced_keeps_its_owner_and_mode(writer: Writer, tmp_path: Path) -> None:
    """Issue 34: `sudo ... -o theirs.csv` left the file root's; the rename keeps owner, group and mode."""
    target = tmp_path / "theirs.csv"
    target.write_bytes(b"old")
    os.chown(target, 65534, 65534)  # nobody's
    target.chmod(0o604)
    wanted = writer(target)
    after = target.stat()
    assert target.read_bytes() == wanted
    assert (after.st_uid, after.st_gid, stat.S_IMODE(after.st_mode)) == (65534, 65534, 0o604)
