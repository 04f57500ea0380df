"""Presenting analysis results (solodeck/analysis.py): the printed table, plots, the cross-game table.

Plots need matplotlib (a dependency of solodeck); they are drawn without a display (Agg).
"""
from __future__ import annotations

import json
from pathlib import Path

MODE_NAMES = {"open": "open (every card known)", "blind": "blind policy"}
RESHUFFLE_MARK = "†"  # open mode knows every later reshuffle and its choices steer them (results/README.md)
TABLE_START, TABLE_END = "<!-- winnability table: written by solodeck analyze -->", "<!-- end of table -->"


def summary_text(summary: dict, title: str, score_name: str | None) -> str:
    lines = [f"{title}: seeds {summary['first_seed']}..{summary['first_seed'] + summary['deals'] - 1}"]
    for mode, m in summary["modes"].items():
        lo, hi = m["interval"]
        unknown = f", {m['unknown']} unknown counted both ways" if m["unknown"] else ""
        lines.append(f"  {MODE_NAMES[mode]:<24} win rate {m['win_rate']:.1%}  (95% interval {lo:.1%}-{hi:.1%};"
                     f" {m['wins']} of {m['deals']}{unknown})")
        if m["scores"]:
            dist = ", ".join(f"{s}: {c}" for s, c in m["scores"].items())
            lines.append(f"  {'':<24} {score_name or 'score'} of wins: {dist}")
        t = summary["timing"].get(mode)
        if t:
            lines.append(f"  {'':<24} time per deal: median {t['median']:.3f} s, p95 {t['p95']:.3f} s, "
                         f"max {t['max']:.3f} s")
    cost = summary.get("cost_of_blindness")
    if cost:
        lines.append(f"  cost of not seeing the deck: {cost['win_rate_difference']:+.1%} win rate; "
                     f"{cost['won_open_lost_blind']} deals won open but lost blind")
    return "\n".join(lines)


def plot_game(summary: dict, rows: list, out: Path, title: str, score_name: str | None) -> Path:
    """One PNG: time per deal (log scale) and the score distribution of wins, per mode."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    modes = list(summary["modes"])
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    bins = _log_bins([max(r["seconds"], 1e-4) for r in rows])  # shared, so the modes compare
    for mode in modes:
        times = [max(r["seconds"], 1e-4) for r in rows if r["mode"] == mode]
        if times:
            axes[0].hist(times, bins=bins, alpha=0.6, label=MODE_NAMES[mode])
        scores = summary["modes"][mode]["scores"]
        if scores:
            xs = [int(s) for s in scores]
            offset = 0.2 * (modes.index(mode) - (len(modes) - 1) / 2)
            axes[1].bar([x + offset for x in xs], list(scores.values()), width=0.4 if len(modes) > 1 else 0.8,
                        label=MODE_NAMES[mode])
    axes[0].set_xscale("log")
    axes[0].set_xlabel("seconds per deal")
    axes[0].set_ylabel("deals")
    axes[0].set_title("time per deal")
    axes[1].set_xlabel(f"{score_name or 'score'} (wins only)")
    axes[1].set_ylabel("deals")
    axes[1].set_title("score distribution")
    for ax in axes:
        if ax.get_legend_handles_labels()[0]:
            ax.legend()
    fig.suptitle(f"{title}, {summary['deals']} seeded deals")
    fig.tight_layout()
    path = out / "plots.png"
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def _log_bins(values, count=30):
    lo, hi = min(values), max(values)
    if hi <= lo:
        return 10
    step = (hi / lo) ** (1 / count)
    return [lo * step ** i for i in range(count + 1)]


def collect(results: Path) -> list:
    """Every results/<game>/summary.json, in the registry's order."""
    from .registry import GAMES

    found = []
    for name, game in GAMES.items():
        path = results / name / "summary.json"
        if path.exists():
            found.append((game, json.loads(path.read_text())))
    return found


def cross_game_table(found: list) -> str:
    """Markdown: per game, the open and blind win rates with intervals and the cost of blindness."""
    lines = ["| game | deals | open win rate (95% interval) | blind policy win rate (95% interval) | open - blind |",
             "|---|---|---|---|---|"]
    for game, s in found:
        cells = []
        for mode in ("open", "blind"):
            m = s["modes"].get(mode)
            if m is None:
                cells.append("—" if mode == "blind" and not game.has_chance else "not run")
                continue
            lo, hi = m["interval"]
            unknown = f", {m['unknown']} unknown" if m["unknown"] else ""
            mark = RESHUFFLE_MARK if mode == "open" and game.reshuffles else ""
            cells.append(f"{m['win_rate']:.1%}{mark} ({lo:.1%}–{hi:.1%}{unknown})")
        cost = s.get("cost_of_blindness")
        diff = f"{cost['win_rate_difference']:+.1%}" if cost else "—"
        lines.append(f"| {game.title} | {s['deals']} | {cells[0]} | {cells[1]} | {diff} |")
    return "\n".join(lines)


def update_cross_game(results: Path) -> Path:
    """`solodeck report RESULTS`: rewrite the table between the markers of RESULTS/README.md (a new
    README.md holding only the table if there is none) and RESULTS/winrates.png, from every
    RESULTS/<game>/summary.json; nothing else is touched. Returns the README's path."""
    from .errors import SolodeckError

    found = collect(results)
    if not found:
        raise SolodeckError(f"{results}: no <game>/summary.json in it (made by `solodeck analyze GAME --out "
                            f"{results}/GAME`)")
    readme = results / "README.md"
    text = readme.read_text() if readme.exists() else f"# Results\n\n{TABLE_START}\n{TABLE_END}\n"
    if TABLE_START not in text or TABLE_END not in text:
        raise SolodeckError(f"{readme}: has no table markers ({TABLE_START} ... {TABLE_END}); add them where the "
                            "table belongs (nothing else in the file is changed)")
    table = f"{TABLE_START}\n{cross_game_table(found)}\n{TABLE_END}"
    head, rest = text.split(TABLE_START, 1)
    readme.write_text(head + table + rest.split(TABLE_END, 1)[1])
    _plot_win_rates(found, results / "winrates.png")
    return readme


def _plot_win_rates(found, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(max(6, 1.6 * len(found) + 2), 4.5))
    for i, (game, s) in enumerate(found):
        for j, mode in enumerate(("open", "blind")):
            m = s["modes"].get(mode)
            if m is None:
                continue
            lo, hi = m["interval"]
            x = i + (j - 0.5) * 0.3
            ax.bar(x, m["win_rate"], width=0.3, color=("tab:blue", "tab:orange")[j], label=MODE_NAMES[mode])
            ax.errorbar(x, m["win_rate"], yerr=[[max(0.0, m["win_rate"] - lo)], [max(0.0, hi - m["win_rate"])]], color="black", capsize=4)
    ax.set_xticks(range(len(found)), [g.title for g, _ in found], rotation=15)
    ax.set_ylim(0, 1.3)  # room for the legend above the bars
    ax.set_ylabel("win rate (95% interval)")
    ax.set_title("Winnability: open (every card known) vs. blind policy")
    handles, labels = ax.get_legend_handles_labels()
    unique = dict(zip(labels, handles))  # one legend entry per mode, not per bar
    ax.legend(unique.values(), unique.keys(), loc="upper center", ncol=2)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
