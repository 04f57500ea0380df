"""Deal files: TOML (or JSON with the same fields).

    game = "GAME"                   # required: a name or alias from `solodeck games`
    seed = 17                       # optional: the seeded shuffle (and seed of later reshuffles)
    deck = "AS 7H TD ..."           # the game's pile(s), top card first; default: the seeded shuffle
    [options]                       # the game's variant options (defaults apply when absent)
    [position]                      # instead of piles: a mid-game position, in the game's own form
    [meta]                          # free-form notes (name, known answer, how it was checked)

Every error names the file, the field and what was expected (solodeck.errors.DealError).

Wherever a deal file is read, ``puzzle:GAME/NAME`` names one of the deal files with known answers
shipped with the package (puzzles/ of the source, copied into the package when installed;
`solodeck puzzles` lists them), so the examples work from any folder.
"""
from __future__ import annotations

import json
import tomllib
from pathlib import Path

from .api import Deal, Game
from .cards import format_cards, parse_cards
from .errors import DealError, SolodeckError
from .registry import get_game

_COMMON_FIELDS = {"game", "seed", "options", "position", "meta"}
PUZZLE_PREFIX = "puzzle:"


def puzzles_dir() -> Path:
    """The shipped puzzles: the copy installed in the package, else puzzles/ of a source checkout
    (an editable install)."""
    here = Path(__file__).resolve().parent
    installed = here / "puzzles"
    return installed if installed.is_dir() else here.parent / "puzzles"


def puzzle_names(game: str | None = None) -> list:
    """Every shipped puzzle as "GAME/NAME" (of one game, a name or alias, if given), sorted."""
    folder = puzzles_dir()
    if game is not None:
        name = get_game(game).name
        return sorted(f"{name}/{p.stem}" for p in (folder / name).glob("*.toml"))
    return sorted(f"{p.parent.name}/{p.stem}" for p in folder.glob("*/*.toml"))


def puzzle_path(name: str) -> Path:
    """The file of a shipped puzzle, ``GAME/NAME`` (``puzzle:`` in front and ``.toml`` behind are
    optional, the game may be an alias); a DealError naming what exists otherwise. Only the
    shipped files can be reached: the name is looked up, never joined into a path."""
    source = name if name.startswith(PUZZLE_PREFIX) else PUZZLE_PREFIX + name
    text = source[len(PUZZLE_PREFIX):].strip()
    game_name, sep, stem = text.partition("/")
    if not sep or not game_name or not stem or "/" in stem:
        raise DealError(source, "", "expected puzzle:GAME/NAME (`solodeck puzzles` lists them, "
                                    "`solodeck puzzles GAME` those of one game)")
    try:
        game = get_game(game_name)
    except SolodeckError as exc:
        raise DealError(source, "", f"{exc}") from None
    stem = stem.removesuffix(".toml")
    known = {entry.split("/", 1)[1] for entry in puzzle_names(game.name)}
    if stem not in known:
        if not known:
            raise DealError(source, "", f"no puzzles are shipped for {game.name} "
                                        f"(the package's puzzle folder {puzzles_dir()} has none)")
        raise DealError(source, "", f"no puzzle named {stem!r} for {game.name}; expected one of: "
                                    + ", ".join(sorted(known)))
    return puzzles_dir() / game.name / f"{stem}.toml"


def load_deal(path) -> Deal:
    source = str(path)
    if source.startswith(PUZZLE_PREFIX):  # a shipped puzzle, by name
        text = puzzle_path(source).read_text(encoding="utf-8")
        return deal_from_text(text, source)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DealError(source, "", "no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise DealError(source, "", f"cannot read: {exc}") from None
    return deal_from_text(text, source)


def deal_from_text(text: str, source: str = "<deal>") -> Deal:
    """A deal file's text (TOML, or JSON when it starts with "{" or ``source`` ends in .json)."""
    if source.endswith(".json") or text.lstrip().startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise DealError(source, "", f"not valid JSON: {exc.msg} (at line {exc.lineno}, column {exc.colno})") from None
        if not isinstance(data, dict):
            raise DealError(source, "", "expected a JSON object with at least the field 'game'")
    else:
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise DealError(source, "", f"not valid TOML: {exc}") from None
    return deal_from_data(data, source)


def deal_from_data(data: dict, source: str = "<deal>") -> Deal:
    if "game" not in data:
        raise DealError(source, "game", "missing: a name from `solodeck games`")
    try:
        game = get_game(data["game"])
    except SolodeckError as exc:
        raise DealError(source, "game", str(exc)) from None
    for key in data:
        if key not in _COMMON_FIELDS and key not in game.piles:
            expected = ", ".join(sorted(_COMMON_FIELDS | set(game.piles)))
            raise DealError(source, key, f"unknown field for {game.name} (expected: {expected})"
                            + (f"; {game.former_meaning}" if game.former_meaning else ""))
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise DealError(source, "options", "expected a table of option = value")
    options = game.resolve_options(options, source)
    seed = data.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**64):
        raise DealError(source, "seed", f"expected a whole number from 0 to 2^64-1, got {seed!r}")

    position = data.get("position")
    given = {name: data[name] for name in game.piles if name in data}
    if position is not None:
        if given:
            raise DealError(source, "position", f"give either a position or the piles ({', '.join(given)}), not both")
        if not isinstance(position, dict):
            raise DealError(source, "position", "expected a table")
        deal = Deal(game.name, options, seed, {}, position, source)
        game.initial_state(deal)  # validates the position now, so errors surface at load time
        return deal

    piles = {}
    for name, value in given.items():
        if not isinstance(value, str):
            raise DealError(source, name, "expected a string of cards, top card first (e.g. \"AS 7H TD\")")
        piles[name] = parse_cards(value, source=source, field=name)
    needed = game.piles_for(options)
    if seed is None and any(n not in piles for n in needed):
        missing = [n for n in needed if n not in piles]
        raise DealError(source, missing[0], "missing: give the pile (top card first) or a seed")
    if seed is not None:
        for name, cards in game.seeded_piles(seed, options).items():
            piles.setdefault(name, cards)
    game.check_piles(piles, source)
    return Deal(game.name, options, seed, piles, None, source)


def deal_to_toml(deal: Deal, game: Game, comment: str = "") -> str:
    """A self-contained deal file: the seed (for reshuffles) and every pile written out."""
    lines = [f"# {comment}"] if comment else []
    lines.append(f'game = "{deal.game}"')
    if deal.seed is not None:
        lines.append(f"seed = {deal.seed}")
    for name in game.piles_for(deal.options):
        lines.append(f'{name} = "{format_cards(deal.piles[name])}"')
    if deal.options:
        lines.append("")
        lines.append("[options]")
        for key, value in deal.options.items():
            lines.append(f"{key} = {json.dumps(value)}")
    return "\n".join(lines) + "\n"


def deal_to_data(deal: Deal) -> dict:
    """The deal as JSON-ready data (hint files embed it, so a hint file alone fixes the deal)."""
    data: dict = {"game": deal.game}
    if deal.seed is not None:
        data["seed"] = deal.seed
    for name, cards in deal.piles.items():
        data[name] = format_cards(cards)
    if deal.options:
        data["options"] = dict(deal.options)
    if deal.position is not None:
        data["position"] = deal.position
    return data
