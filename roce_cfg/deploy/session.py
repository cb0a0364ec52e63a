"""One switch's CLI session as push drives it: every line is written, and its echo
and answer read up to the next prompt (or a question the dialect names) before the next line
goes out, so a refused line stops the push where it was refused, with the switch's own error
text, instead of the following lines landing in the wrong view. What a prompt, a question and
an error look like is the vendor's dialect (platforms/dialect.py)."""

from __future__ import annotations

import re
import select
import time

from netmiko import BaseConnection

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


def _exec_prompt(template: str) -> str:
    return re.escape(template).replace(re.escape("{host}"), r"[\w.\-/]+")


class Cli:
    """Line-at-a-time configuration over a netmiko connection."""

    def __init__(self, conn: BaseConnection, profile: VendorProfile, timeout: float) -> None:
        self.conn, self.profile, self.timeout = conn, profile, timeout
        d = profile.dialect
        questions = [q for q in (d.save.question, d.commit.leave_question) if q]
        questions += [q.ends for q in d.questions]
        ends = [d.prompts.pattern, _exec_prompt(d.prompts.exec), *map(re.escape, questions)]
        self._end = re.compile("(?:" + "|".join(ends) + r")\s*$")
        errors = (*profile.error_patterns, d.error)
        self._errors = re.compile("|".join(re.escape(e) for e in errors))
        self.sent: list[str] = []  # every line written, in order (what may be on the switch)
        self.config = False  # in config mode (as far as this session took it there)
        self.ended = ""  # what the last answer ended with

    def send(self, line: str, check: bool = True) -> str:
        """Write ``line``, read its echo and answer up to the prompt; the answer (without echo
        and prompt). ``check``: a refusal raises Rejected with the switch's error text."""
        self.conn.write_channel(self.conn.normalize_cmd(line))
        self.sent.append(line)
        answer = self._read(line)
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
        out, pending = "", self.profile.dialect.asked(line.strip())
        while pending:
            q = next((q for q in pending if q.ends in self.ended), None)
            if q is None:
                break
            pending.remove(q)
            out += "\n" + self.send(q.answer, check=False)
        return out

    def refusal(self, answer: str) -> str:
        """The switch's error text in an answer ('' when it has none)."""
        m = self._errors.search(answer)
        if m is None:
            return ""
        lines = [ln.strip() for ln in answer[m.start() :].splitlines() if ln.strip()]
        return " ".join(lines[:2])

    def _read(self, line: str) -> str:
        output, deadline = "", time.monotonic() + self.timeout
        echo = line.strip()
        while True:
            if time.monotonic() > deadline:
                raise NoAnswer(f"no answer to '{echo}' within {self.timeout:g} s")
            chunk = self.conn.read_channel()
            if chunk:
                output += chunk
                if len(output) > MAX_ANSWER:
                    raise NoAnswer(f"the switch sent over {MAX_ANSWER >> 20} MiB after '{echo}'")
                at = output.find(echo)
                body = output[at + len(echo) :] if at >= 0 else ""
                m = self._end.search(body) if at >= 0 else None
                if m is not None:
                    self.ended = m.group(0).strip()  # the prompt, or the question asked
                    return body[: m.start()].strip("\r\n")
                continue
            if getattr(self.conn.remote_conn, "closed", False):  # is_alive() writes to the CLI
                raise Dropped(f"the switch closed the connection at '{echo}'")
            _wait_for_data(self.conn.remote_conn, deadline - time.monotonic())

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


def _wait_for_data(channel: object, seconds: float) -> None:
    """Sleep until the channel has data (or closes), at most ``seconds`` and never over 50 ms,
    so the closed check above runs often. A paramiko channel is a file descriptor that select
    wakes on as the answer arrives; polling at a fixed 2 ms cost a sleep per line and most of
    push's CPU in empty reads."""
    seconds = min(max(seconds, 0.0), 0.05)
    fileno = getattr(channel, "fileno", None)
    if fileno is None:
        time.sleep(min(seconds, 0.002))
        return
    select.select([fileno()], [], [], seconds)


def show(conn: BaseConnection, command: str, timeout: float) -> str:
    """A display command's output (the running or the saved config). A hang-up while it is
    read is Dropped at once, and either failure says how long it took: netmiko alone would
    wait for the echo, then the output, and call a closed session a timeout."""
    from netmiko import ReadTimeout

    start, read = time.monotonic(), conn.read_channel

    def watched() -> str:
        data = str(read())
        if not data and getattr(conn.remote_conn, "closed", False):
            raise Dropped(
                f"the switch closed the connection while '{command}' was read "
                f"({time.monotonic() - start:.1f} s in)"
            )
        return data

    setattr(conn, "read_channel", watched)  # noqa: B010 (an instance's own, removed below)
    try:
        return str(conn.send_command(command, read_timeout=timeout))
    except ReadTimeout:
        raise NoAnswer(
            f"no answer to '{command}' within {time.monotonic() - start:.1f} s"
        ) from None
    except (OSError, EOFError) as exc:
        raise Dropped(
            f"the connection failed while '{command}' was read "
            f"({time.monotonic() - start:.1f} s in): {exc}"
        ) from None
    finally:
        delattr(conn, "read_channel")
