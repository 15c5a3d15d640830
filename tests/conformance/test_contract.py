"""The protocol schema (conformance/schemas/protocol.schema.json) as a contract: a valid JSON
Schema, in agreement with the prose of docs/protocol.md (its examples are valid messages),
with the requests the harness sends and with bleu_impl's bounds."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest

from bleu_impl.knobs import MAX_ORDER_LIMIT
from conformance.cases import load_fixtures
from conformance.contract import PROTOCOL_SCHEMA, definition, violation
from conformance.engine import build_request
from conformance.protocol import AdapterError, Answer, checked

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "conformance" / "schemas" / PROTOCOL_SCHEMA


def test_the_schema_is_a_valid_json_schema():
    jsonschema.Draft202012Validator.check_schema(json.loads(SCHEMA.read_text(encoding="utf-8")))


def _examples() -> list[dict]:
    """The JSON blocks of docs/protocol.md (its ``//`` comments removed)."""
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```json\n(.*?)```", text, re.S)
    return [json.loads(re.sub(r"//[^\n]*", "", block)) for block in blocks]


def _message(example: dict) -> str:
    if "cmd" in example:
        return example["cmd"]
    return "hello_answer" if "implementation" in example else "answer"


def test_every_example_of_the_protocol_doc_is_a_valid_message():
    examples = _examples()
    assert sorted({_message(e) for e in examples}) == [
        "answer",
        "hello",
        "hello_answer",
        "score",
        "stop",
    ]
    assert [violation(e, _message(e)) for e in examples] == [None] * len(examples)


REQUEST = {
    "level": "corpus",
    "config": {},
    "input_format": "raw",
    "hypotheses": ["a cat"],
    "references": [["a cat", None]],
}


@pytest.mark.parametrize(
    ("message", "name", "says"),
    [
        ({"seq": 7, "score": 0.5, "failure": {"kind": None}}, "answer", "not both"),
        ({"seq": 7}, "answer", "'score' is a required property"),
        ({"protocol": 1, "implementation": {"name": "x", "timeout": 5}}, "hello_answer", "timeout"),
        ({"cmd": "score", "seq": 1, "request": {**REQUEST, "level": "document"}}, "score", "level"),
        (
            {"cmd": "score", "seq": 1, "request": {**REQUEST, "references": [[1]]}},
            "score",
            "[0][0]",
        ),
    ],
)
def test_the_schema_refuses_what_the_doc_forbids(message, name, says):
    found = violation(message, name)
    assert found is not None and says in found


def test_every_request_the_harness_sends_is_a_valid_score_message():
    loaded = load_fixtures()
    assert not loaded.problems
    checked = 0
    for seq, case in enumerate(loaded.cases):
        for key in [None, *(loaded.keys[k] for k in case.expected if k in loaded.keys)]:
            try:
                request = build_request(case, key)
            except Exception:  # knobs that do not resolve are never sent
                continue
            sent = json.loads(json.dumps(request.to_json(None)))  # as the program reads it
            message = {"cmd": "score", "seq": seq, "request": sent}
            assert violation(message, "score") is None, (case.id, message)
            checked += 1
    assert checked > len(loaded.cases)


def test_counts_may_have_as_many_orders_as_bleu_impl_accepts():
    assert definition("orders")["maxItems"] == MAX_ORDER_LIMIT


def test_a_value_nested_deeper_than_a_python_stack_is_refused_not_a_crash():
    deep: list = []
    for _ in range(5000):
        deep = [deep]
    with pytest.raises(AdapterError, match="nested too deeply to be read"):
        checked(Answer(score=deep))
