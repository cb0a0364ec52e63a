"""One switch's CLI session as push drives it: every line's echo and answer is read up to the
next prompt (or a question the dialect names) and checked in order, so a refused line stops the
push where it was refused, with the switch's own error text. Configuration lines may be typed
ahead of the answers (``Cli.send_all``'s window), as a CLI queues the lines it is given and
answers them one after the other; a line that opens a view is answered before anything is
typed after it, so no line can land in the wrong view. What a prompt, a question, an error and
a view look like is the vendor's dialect (platforms/dialect.py)."""

from __future__ import annotations

import codecs
import contextlib
import re
import time
from collections import deque
from typing import Any

from netmiko import BaseConnection

from roce_cfg.deploy.tree import Tree
from roce_cfg.platforms.dialect import Question
from roce_cfg.platforms.profile import VendorProfile


class PushError(Exception):
    kind = "error"


class Rejected(PushError):
    kind = "rejected"


class NoAnswer(PushError):
    kind = "timeout"


class Dropped(PushError):
    kind = "dropped"


# What one answer may add up to: a line's echo, error text and prompt are a few KiB; a switch
# that talks this much without a prompt is not answering.
MAX_ANSWER = 4 << 20


# Configuration lines typed ahead of the answers read, by default. Enough that the round trip
# per line no longer sets the pace (a view opener ends a window early anyway: one line in 9 to 13
# of a leaf's push), few enough that no CLI's input buffer comes near full (the streaming push
# that came before sent 25 at once). 50 emulated leaves (python -m bench.push_bench --compare
# --modes 'ahead 8,ahead 16,ahead 32'): 4.3, 3.9, 3.6 s; 1 line at a time, 10 s.
TYPE_AHEAD = 16

# Bytes taken from the channel per read (netmiko's own reads take as many).
READ_SIZE = 65535


def _exec_prompt(template: str) -> str:
    return re.escape(template).replace(re.escape("{host}"), r"[\w.\-/]+")


class Cli:
    """Configuration over a netmiko connection: each line's answer read and checked, in order."""

    def __init__(self, conn: BaseConnection, profile: VendorProfile, timeout: float) -> None:
        self.conn, self.profile, self.timeout = conn, profile, timeout
        d = profile.dialect
        questions = [q for q in (d.save.question, d.commit.leave_question) if q]
        questions += [q.ends for q in d.questions]
        prompts = [d.prompts.pattern, _exec_prompt(d.prompts.exec)]
        self._end = re.compile("(?:" + "|".join([*prompts, *map(re.escape, questions)]) + r")\s*$")
        # A prompt that starts a line: with lines typed ahead, the next line's echo follows it;
        # after a display, it ends the output (a line of a config never looks like one).
        self._prompt = re.compile(r"(?m)^(?:" + "|".join(prompts) + ")")
        self._shown = re.compile(r"(?m)^(?:" + "|".join(prompts) + r")\s*\Z")
        errors = (*profile.error_patterns, d.error)
        self._errors = re.compile("|".join(re.escape(e) for e in errors))
        self._opens_view = Tree(profile).is_view
        self._asks = d.asked
        self._awaits: dict[str, bool] = {}  # _awaited's answers
        self._asks_of: dict[str, list[Question]] = {}  # _asked's
        self._buf = ""  # what the switch said that no answer has taken yet
        self._cr = ""  # a chunk's trailing '\r', held for the '\n' that may follow it
        self._via_netmiko = True  # until the first read: see _receive
        self._decode = codecs.getincrementaldecoder(getattr(conn, "encoding", "utf-8"))("ignore")
        self.sent: list[str] = []  # every line written, in order (what may be on the switch)
        self.config = False  # in config mode (as far as this session took it there)
        self.ended = ""  # what the last answer ended with

    def send(self, line: str, check: bool = True) -> str:
        """Write ``line``, read its echo and answer up to the prompt; the answer (without echo
        and prompt). ``check``: a refusal raises Rejected with the switch's error text."""
        self._write([line])
        answer = self._read(line, None)
        answer += self._questions(line)
        if check:
            bad = self.refusal(answer)
            if bad:
                raise Rejected(f"rejected at command: {line.strip()} ({bad})")
        return answer

    def _questions(self, line: str) -> str:
        """Answer what a restore or confirm command asks before it acts (the dialect's
        ``questions``: Comware's 'save <file>', VRP's 'rollback configuration'), in whatever
        order the switch asks; what the answers printed."""
        out, pending = "", self._asked(line)
        while pending:
            q = next((q for q in pending if q.ends in self.ended), None)
            if q is None:
                break
            pending = [p for p in pending if p is not q]
            out += "\n" + self.send(q.answer, check=False)
        return out

    def show(self, command: str) -> str:
        """A display command's output (the running or the saved config), read as it arrives,
        up to the prompt after it; its lines end in '\\n', as netmiko gives them. A hang-up
        while it is read is Dropped at once, saying how long it took."""
        start = time.monotonic()
        try:
            self._write([command])
            text = self._read(command, None, self._shown)
        except Dropped:
            raise Dropped(
                f"the switch closed the connection while '{command}' was read "
                f"({time.monotonic() - start:.1f} s in)"
            ) from None
        except (OSError, EOFError) as exc:
            raise Dropped(
                f"the connection failed while '{command}' was read "
                f"({time.monotonic() - start:.1f} s in): {exc}"
            ) from None
        return str(self.conn.normalize_linefeeds(text))

    def send_all(
        self, lines: list[str], window: int = 1, fenced: frozenset[str] = frozenset()
    ) -> None:
        """Every line, with up to ``window`` of them written ahead of the answers read; each
        answer is still read and checked in order, and the first refusal raises Rejected.
        A line that opens a view (the dialect's ``views``), or that the switch asks a question
        about (``questions``), is written last of its window and answered before anything
        follows it: had it been refused, the lines meant for the view would land in the one
        around it; a question would take the next line for its answer. The lines written after
        a refused one were typed, so they are in ``sent`` and their answers are read before
        Rejected is raised; the restore compares the whole running config with the snapshot,
        so it covers them too, except what it cannot take back: those lines are ``fenced``,
        typed only once every line before them is answered."""
        ahead: deque[str] = deque()
        todo = deque(lines)
        while todo or ahead:
            if todo and len(ahead) <= window // 2 and not (ahead and self._awaited(ahead[-1])):
                self._write(self._window(todo, window - len(ahead), fenced, bool(ahead)), ahead)
            line = ahead.popleft()
            answer = self._read(line, ahead[0] if ahead else None)
            answer += self._questions(line)
            bad = self.refusal(answer)
            if bad:
                typed = len(ahead)
                self._drain(ahead)
                after = f"; {typed} line(s) after it were already typed" if typed else ""
                raise Rejected(f"rejected at command: {line.strip()} ({bad}){after}")

    def _window(
        self, todo: deque[str], room: int, fenced: frozenset[str], waiting: bool
    ) -> list[str]:
        """Up to ``room`` lines from ``todo``, ending early after one whose answer is awaited
        and before a fenced one that would not go first (``waiting``: answers are due)."""
        out: list[str] = []
        while todo and len(out) < room:
            if todo[0] in fenced and (out or waiting):
                break
            out.append(todo.popleft())
            if self._awaited(out[-1]):
                break
        return out

    def _awaited(self, line: str) -> bool:
        """A line whose answer must be read before the next line is typed."""
        known = self._awaits.get(line)
        if known is None:
            known = self._awaits[line] = self._opens_view(line) or bool(self._asked(line))
        return known

    def _asked(self, line: str) -> list[Question]:
        """The questions the dialect says ``line`` may be asked (its patterns are tried three
        times a line typed: remembered per line, as a port's lines repeat on every port)."""
        known = self._asks_of.get(line)
        if known is None:
            known = self._asks_of[line] = self._asks(line.strip())
        return known

    def _write(self, lines: list[str], ahead: deque[str] | None = None) -> None:
        if not lines:
            return
        text = "".join(self.conn.normalize_cmd(c) for c in lines)
        channel: Any = self.conn.remote_conn
        if hasattr(channel, "sendall"):  # paramiko's: netmiko's write adds a lock and a log
            channel.sendall(text.encode(self.conn.encoding))  # line of every window typed
        else:
            self.conn.write_channel(text)
        self.sent.extend(lines)
        if ahead is not None:
            ahead.extend(lines)

    def _drain(self, ahead: deque[str]) -> None:
        """Read the answers of lines already typed (the session is left at a prompt); a switch
        that fails to answer them is the restore's to deal with."""
        with contextlib.suppress(PushError):
            while ahead:
                line = ahead.popleft()
                self._read(line, ahead[0] if ahead else None)

    def refusal(self, answer: str) -> str:
        """The switch's error text in an answer ('' when it has none)."""
        m = self._errors.search(answer)
        if m is None:
            return ""
        lines = [ln.strip() for ln in answer[m.start() :].splitlines() if ln.strip()]
        return " ".join(lines[:2])

    def _read(self, line: str, following: str | None, end: re.Pattern[str] | None = None) -> str:
        """The answer to ``line``: from its echo to the prompt that ends it. ``following``:
        the line typed after it, whose echo comes right after that prompt; ``end``: what ends
        the last line's answer (a prompt or a question that ends the output)."""
        deadline = time.monotonic() + self.timeout
        echo = line.strip()
        after = following.strip() if following is not None else None
        fresh = True
        while True:
            if fresh:
                answer = self._answer(echo, after, end or self._end)
                if answer is not None:
                    return answer
            if time.monotonic() > deadline:
                raise NoAnswer(self._no_answer(echo, after))
            chunk = self._receive(echo, deadline - time.monotonic())
            fresh = bool(chunk)
            self._buf += chunk
            if len(self._buf) > MAX_ANSWER:
                raise NoAnswer(f"the switch sent over {MAX_ANSWER >> 20} MiB after '{echo}'")

    def _receive(self, echo: str, seconds: float) -> str:
        """What the switch said since the last read, waiting at most ``seconds`` (never over
        half a second) for it; '' when nothing came. Dropped when the channel has closed (a
        connection that fails closes it too). A paramiko channel is read directly: its recv
        sleeps on the channel's own condition until the transport's thread feeds or closes
        it. netmiko's read_channel, and the select on the channel's pipe before it (a pipe
        the transport then wrote a byte to for each packet), cost more than the read itself,
        once per window of lines typed."""
        channel: Any = self.conn.remote_conn  # paramiko's Channel (it ships no types)
        seconds = min(max(seconds, 0.0), 0.5)
        if self._via_netmiko or not hasattr(channel, "recv"):
            # the session's first read goes through netmiko, which hands over what it read
            # past its own prompts at login; a stand-in without recv is read so throughout
            self._via_netmiko = not hasattr(channel, "recv")
            chunk = str(self.conn.read_channel())
            if chunk:
                return chunk
            if getattr(channel, "closed", False):  # is_alive() writes to the CLI
                raise Dropped(f"the switch closed the connection at '{echo}'")
            if self._via_netmiko:
                time.sleep(min(seconds, 0.002))
                return ""
        kept = channel.gettimeout()
        channel.settimeout(seconds)
        try:
            data = channel.recv(READ_SIZE)
        except TimeoutError:
            data = None
        finally:
            channel.settimeout(kept)
        if data == b"":
            raise Dropped(f"the switch closed the connection at '{echo}'")
        return self._text(data)

    def _text(self, data: bytes | None) -> str:
        """Received bytes as netmiko's read_channel gives them (line ends normalized, ANSI
        escapes stripped where its driver does). A trailing '\r' waits for the next chunk, as
        a '\r\n' split between two is one line end; ``data`` None (nothing came) lets it go."""
        conn = self.conn
        text = self._cr + (self._decode.decode(data) if data is not None else "")
        self._cr = ""
        if data is not None and text.endswith("\r"):
            body = text.rstrip("\r")
            text, self._cr = body, text[len(body) :]
        if not text:
            return ""
        if not conn.disable_lf_normalization:
            text = conn.normalize_linefeeds(text)
        if conn.ansi_escape_codes:
            text = conn.strip_ansi_escape_codes(text)
        return str(text)

    def _answer(self, echo: str, after: str | None, end: re.Pattern[str]) -> str | None:
        """The answer to the line echoed ``echo`` when the buffer holds all of it (taken from
        the buffer), else None. The last line typed ends at a prompt (or a question) that ends
        the output; one with ``after`` typed behind it at a prompt that starts a line and is
        followed by that line's echo (or by nothing yet)."""
        at = self._buf.find(echo)
        if at < 0:
            return None
        body = self._buf[at + len(echo) :]
        if after is None:
            m = end.search(body)
            taken = len(body)
        else:
            m = self._prompt.search(body)
            if m is not None and not _then(body, m.end(), after):
                return None  # not its end yet, or a question the next line answered (see below)
            taken = m.end() if m is not None else 0
        if m is None:
            return None
        self.ended = m.group(0).strip()  # the prompt, or the question asked
        self._buf = body[taken:]
        return body[: m.start()].strip("\r\n")

    def _no_answer(self, echo: str, after: str | None) -> str:
        why = f"no answer to '{echo}' within {self.timeout:g} s"
        if after is not None and after in self._buf:
            why += (
                f" (the next line '{after}' was echoed with no prompt before it: a question the "
                "switch asked, which that line answered, or a CLI that echoes lines typed ahead "
                "at once; push with a type-ahead of 1)"
            )
        return why

    def at_user_view(self) -> None:
        """Out of config mode, where a driver's login may have left the session (netmiko's
        Comware ``enable()`` is ``system-view``)."""
        if self.conn.check_config_mode():
            self.leave()

    def enter(self) -> None:
        self.send(self.profile.dialect.enter[0])
        self.config = True

    def leave(self) -> None:
        """Back to the user view; a question about uncommitted changes is answered 'no'."""
        d = self.profile.dialect
        self.answers(d.leave[0], d.commit.leave_question, "n")
        self.config = False

    def answers(self, line: str, question: str | None, reply: str) -> str:
        """Send ``line``; when the switch asks ``question``, reply and read on."""
        answer = self.send(line, check=False)
        if question and question in self.ended:
            answer = self.send(reply, check=False)
        return answer


def _then(body: str, at: int, after: str) -> bool:
    """What follows a prompt at ``at``: the echo of the line typed next, or nothing yet."""
    rest = body[at:].lstrip(" \t")
    return rest.startswith(after) or not rest.strip()
