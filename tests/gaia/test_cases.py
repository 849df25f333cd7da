"""Games from the site's engine that exposed a kind of fault (``shared/cases/gaia/``, issue 14).

Each file is a whole game played by random legal moves in the site's engine; its README gives the
right outcome per kind. Every file is replayed move by move with legality checks on
(``strict=True``: the main action of each line is also in ``legal_actions()``), **never** in
lenient mode, to exactly its recorded ``final`` state. Files whose kind is not fixed yet are strict
xfails naming it, so fixing a kind fails its xfail and the entry must go.
"""

from __future__ import annotations

import pytest

from boardrules_gaia import replay as R
from boardrules_gaia.records import load_record
from tests.conftest import SHARED, shared_path

CASE_NAMES = sorted(p.stem for p in (SHARED / "cases" / "gaia").glob("*.json")) or ["(missing)"]

_outcomes: dict = {}


def outcome(name) -> R.Outcome:
    if name not in _outcomes:
        rec = load_record(shared_path("cases", "gaia", f"{name}.json"))
        _outcomes[name] = (rec, R.replay_record(rec, strict=True, lenient=False))
    return _outcomes[name]


@pytest.mark.parametrize("name", CASE_NAMES)
def test_case_replays_exactly_without_lenient_mode(name):
    rec, out = outcome(name)
    assert out.divergence is None, str(out.divergence)
    assert out.lines == len(rec.lines)
    assert out.differences == (), "\n".join(out.differences)
    assert not out.lenient and out.notes == ()
    assert out.power_log is None, out.power_log


# ---- kinds seen without a file (README of shared/cases/gaia) ----------------------------------

def _replayer_before(record_name: str, move: int):
    """A replayer of a shared record with every line before ``move`` (index in ``moves``) played."""
    rec = load_record(shared_path("gaia-records", f"{record_name}.json"))
    rp = R.Replayer(rec, strict=True)
    lead = rec.setup.consumes_leading_moves
    for i in range(move - lead):
        rp.line(i, rec.lines, rec.moves_raw[lead + i])
    return rec, rp, move - lead


def _play_instead(rec, rp, k: int, text: str):
    from boardrules_gaia import notation as N

    rp.line(k, (*rec.lines[:k], N.parse_line(text)))


def _res(rp, name, p):
    return rp.game.state.values.get(("r", name, p), 0)


def test_nevlas_pi_combined_conversion_is_translated():
    """The site's `spend 4pw for 1o,1c` (Nevlas with the PI: two bowl-III tokens worth 2 each,
    §4) is the rules' conversion nevlas_oc; record deep-mind-2, its move 201 played instead as
    `special 4pw. spend 4pw for 1o,1c.`"""
    rec, rp, k = _replayer_before("deep-mind-2", 201)
    p = rec.factions.index("nevlas")
    assert rp.game.state.values[("v", "built", p, "pi")] == 1
    o, c = _res(rp, "ore", p), _res(rp, "credits", p)
    bowls = [_res(rp, f"bowl{i}", p) for i in (1, 2, 3)]
    _play_instead(rec, rp, k, "nevlas special 4pw. spend 4pw for 1o,1c.")
    assert (_res(rp, "ore", p), _res(rp, "credits", p)) == (o + 1, c + 1)
    assert [str(a) for a in rp.game.record.actions[-1:]] == [f"p{p + 1} convert nevlas_oc"]
    # the charge of 4 and two bowl-III tokens spent
    after = [_res(rp, f"bowl{i}", p) for i in (1, 2, 3)]
    assert sum(after) == sum(bowls) and after[0] >= 2


def test_combined_conversion_of_another_faction_is_refused():
    from boardrules_gaia.replay import ReplayError

    rec, rp, k = _replayer_before("deep-mind-2", 201)
    with pytest.raises(ReplayError, match="combined conversion"):
        _play_instead(rec, rp, k, "xenos spend 4pw for 1o,1c.")


def test_bescods_up_lowest_declined_stays_illegal():
    """Where the site's engine is wrong, the rule holds: Bescods' `special up-lowest` followed by
    `decline up` is an action without effect, refused (§12.9 and the rulings behind it), never
    replayed leniently; record JaeggaFun04, its move 54 played instead that way."""
    from boardrules_gaia.replay import ReplayError

    rec, rp, k = _replayer_before("JaeggaFun04", 54)
    p = rec.factions.index("bescods")
    before = rp.game.state
    with pytest.raises(ReplayError, match=r"without effect \(gaia-project.md §12.9\)"):
        _play_instead(rec, rp, k, "bescods special up-lowest. decline up.")
    assert rp.game.state.values.get(("v", "special_used", p)) in (None, False)
    assert rp.game.state.values == before.values
    # the rules' own action needs a track: there is no way to take it without its step
    legal = {a for a in rp.game.legal_actions() if a.name == "bescods_research"}
    assert legal and all(len(a.args) == 1 for a in legal)


def test_step_with_no_option_declined_whether_or_not_written(tmp_path):
    """random-2p-12005 move 18: the Bal T'aks' navigation tile before their PI offers no step;
    the record's `decline up` answers that decision; a line that leaves it out replays the same."""
    import json

    data = json.loads(shared_path("cases", "gaia", "random-2p-12005.json").read_text(encoding="utf-8"))
    for key in ("moves", "moves_clean"):
        assert ". decline up." in data[key][18]
        data[key][18] = data[key][18].replace(". decline up.", ".")
    path = tmp_path / "random-2p-12005-unwritten.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    out = R.replay_record(path, strict=True, lenient=False)
    assert out.divergence is None and out.differences == ()
    # `decline up` where no step is offered at all is an error, never a declined power charge
    data["moves_clean"][19] = data["moves_clean"][19].replace(". pass", ". decline up. pass")
    assert ". decline up. pass" in data["moves_clean"][19]
    path.write_text(json.dumps(data), encoding="utf-8")
    out = R.replay_record(path, strict=True, lenient=False)
    assert out.divergence is not None and out.divergence.index == 19
    assert "no research step is offered" in out.divergence.reason
