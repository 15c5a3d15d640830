"""MarkedTail: a worker's output attributed to the reply it came before."""

import threading

from conformance.adapters.streams import MarkedTail, end_mark


def test_marks_are_taken_out_wherever_the_pipe_splits_them() -> None:
    stream = b"first case\n" + end_mark(1) + b"second \x00 case\n" + end_mark(2) + b"\x00tail"
    for cut in range(len(stream) + 1):
        for second_cut in range(cut, len(stream) + 1):
            tail = MarkedTail()
            for chunk in (stream[:cut], stream[cut:second_cut], stream[second_cut:]):
                tail.feed(chunk)
            assert tail.wait_mark(2, 0)
            assert not tail.wait_mark(3, 0)
            assert tail.text().startswith("first case\nsecond \x00 case\n"), (cut, second_cut)
            # a NUL held back (it may start a mark) arrives with what follows it
            tail.feed(b" end")
            assert tail.text() == "first case\nsecond \x00 case\n\x00tail end", (cut, second_cut)


def test_output_before_a_mark_is_in_the_tail_when_the_wait_returns() -> None:
    tail = MarkedTail()
    before = tail.mark()

    def worker() -> None:
        tail.feed(b"printed during case 7\n")
        tail.feed(end_mark(7))

    thread = threading.Thread(target=worker)
    thread.start()
    assert tail.wait_mark(7, 5.0)
    assert tail.since(before) == "printed during case 7\n"
    thread.join()


def test_a_missing_mark_times_out() -> None:
    tail = MarkedTail()
    tail.feed(b"no mark: the implementation closed its stderr")
    assert not tail.wait_mark(1, 0.01)
    assert tail.text() == "no mark: the implementation closed its stderr"


def test_text_that_only_looks_like_a_mark_is_kept() -> None:
    tail = MarkedTail()
    tail.feed(b"\x00bleu-conformance:end:x\x00 and \x00bleu-conformance:en")
    tail.feed(b"joy\n")
    assert tail.text() == "\x00bleu-conformance:end:x\x00 and \x00bleu-conformance:enjoy\n"
