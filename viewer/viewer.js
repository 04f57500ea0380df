// The reference hint viewer for solodeck hint files (docs/hints.md).
//
// Plain browser JavaScript, no build step, no libraries, nothing from the network: it fetches the
// hint file (./hints.json, or ?hints=URL) and the JSON Schema of its version
// (./schema/hints-vN.schema.json), validates the file with the small validator below, then draws
// the deal, the line and, at each decision, the position and every move ranked with its value.
// Cards are drawn here as inline SVG. Anything that goes wrong is written on the page: a hint
// file that breaks its schema names the place and what was expected.
//
// For tests and other tools the page reports its state on <body>: data-state is "loading",
// "ready" or "error", data-step the decision shown (1-based), data-steps how many there are.
"use strict";

(function () {
  // ---------------------------------------------------------------------------------------------
  // A JSON Schema validator for the keywords the hint schemas use (draft 2020-12 subset):
  // $ref (to "#/..." in the same schema), type (a name or a list), required, properties,
  // additionalProperties (false or a schema), enum, const, items, minItems, maxItems, minimum,
  // maximum, minLength, pattern. Annotations (title, description, $id, $schema, $defs) are skipped.
  const KNOWN_KEYWORDS = new Set([
    "$ref", "type", "required", "properties", "additionalProperties", "enum", "const", "items",
    "minItems", "maxItems", "minimum", "maximum", "minLength", "pattern",
    "$schema", "$id", "$defs", "title", "description", "$comment", "default", "examples",
  ]);
  const MAX_ERRORS = 12;

  function kindOf(value) {
    if (value === null) return "null";
    if (Array.isArray(value)) return "array";
    if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
    return typeof value; // string, boolean, object
  }

  function hasType(value, type) {
    const kind = kindOf(value);
    return kind === type || (type === "number" && kind === "integer");
  }

  function same(a, b) {
    return JSON.stringify(a) === JSON.stringify(b);
  }

  function describe(value) {
    const text = JSON.stringify(value);
    const short = text === undefined ? String(value) : text.length > 48 ? text.slice(0, 45) + "…" : text;
    return `${kindOf(value)} ${short}`;
  }

  // Returns [{path, message}] (empty when valid); path is a JSON Pointer into the data.
  function validate(root, data) {
    const errors = [];
    const unknown = new Set();
    const fail = (path, message) => {
      if (errors.length < MAX_ERRORS) errors.push({ path: path || "", message });
    };
    const resolve = (ref) => {
      if (!ref.startsWith("#")) throw new Error(`the viewer resolves only local $ref, not ${ref}`);
      let node = root;
      for (const part of ref.slice(1).split("/").filter(Boolean)) {
        node = node[decodeURIComponent(part).replace(/~1/g, "/").replace(/~0/g, "~")];
        if (node === undefined) throw new Error(`the schema's $ref ${ref} points nowhere`);
      }
      return node;
    };

    function check(schema, value, path) {
      if (errors.length >= MAX_ERRORS || schema === true) return;
      if (schema === false) return fail(path, "no value is allowed here");
      for (const key of Object.keys(schema)) if (!KNOWN_KEYWORDS.has(key)) unknown.add(key);
      if (schema.$ref !== undefined) check(resolve(schema.$ref), value, path); // 2020-12: beside the other keywords
      if (schema.type !== undefined) {
        const types = Array.isArray(schema.type) ? schema.type : [schema.type];
        if (!types.some((t) => hasType(value, t))) {
          return fail(path, `expected ${types.join(" or ")}, got ${describe(value)}`);
        }
      }
      if ("const" in schema && !same(value, schema.const)) {
        fail(path, `expected ${JSON.stringify(schema.const)}, got ${describe(value)}`);
      }
      if (schema.enum !== undefined && !schema.enum.some((e) => same(value, e))) {
        fail(path, `expected one of ${schema.enum.map((e) => JSON.stringify(e)).join(", ")}, got ${describe(value)}`);
      }
      if (typeof value === "number") {
        if (schema.minimum !== undefined && value < schema.minimum) fail(path, `expected at least ${schema.minimum}, got ${value}`);
        if (schema.maximum !== undefined && value > schema.maximum) fail(path, `expected at most ${schema.maximum}, got ${value}`);
      }
      if (typeof value === "string") {
        if (schema.minLength !== undefined && [...value].length < schema.minLength) {
          fail(path, `expected a string of at least ${schema.minLength} characters, got ${describe(value)}`);
        }
        if (schema.pattern !== undefined && !new RegExp(schema.pattern, "u").test(value)) {
          fail(path, `expected a string matching ${schema.pattern}, got ${describe(value)}`);
        }
      }
      if (Array.isArray(value)) {
        if (schema.minItems !== undefined && value.length < schema.minItems) {
          fail(path, `expected at least ${schema.minItems} items, got ${value.length}`);
        }
        if (schema.maxItems !== undefined && value.length > schema.maxItems) {
          fail(path, `expected at most ${schema.maxItems} items, got ${value.length}`);
        }
        if (schema.items !== undefined) value.forEach((item, i) => check(schema.items, item, `${path}/${i}`));
      }
      if (kindOf(value) === "object") {
        for (const name of schema.required || []) {
          if (!(name in value)) fail(path, `missing required field "${name}"`);
        }
        const props = schema.properties || {};
        for (const [name, item] of Object.entries(value)) {
          const where = `${path}/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`;
          if (name in props) check(props[name], item, where);
          else if (schema.additionalProperties === false) fail(where, `unexpected field "${name}" (not in the schema)`);
          else if (schema.additionalProperties !== undefined) check(schema.additionalProperties, item, where);
        }
      }
    }

    check(root, data, "");
    if (unknown.size) console.warn(`viewer: schema keywords not checked: ${[...unknown].join(", ")}`);
    return errors;
  }

  // ---------------------------------------------------------------------------------------------
  // Cards, drawn as inline SVG: rank and suit on a face, a lattice on a back. A face-down card
  // whose face is known (open mode) shows its face small in the corner, ghosted; a Foresight back
  // shows the suits printed on it.
  const SUITS = {
    // 100 x 100 paths
    S: { name: "spades", color: "black", d: "M50 4C72 26 94 40 94 60C94 75 83 83 72 83C63 83 56 78 53 72C54 82 58 90 66 96H34C42 90 46 82 47 72C44 78 37 83 28 83C17 83 6 75 6 60C6 40 28 26 50 4Z" },
    H: { name: "hearts", color: "red", d: "M50 92C22 68 5 50 5 30C5 14 17 4 30 4C40 4 47 10 50 18C53 10 60 4 70 4C83 4 95 14 95 30C95 50 78 68 50 92Z" },
    D: { name: "diamonds", color: "red", d: "M50 2L86 50L50 98L14 50Z" },
    C: { name: "clubs", color: "black", d: "M50 6A19 19 0 1 1 49.9 6ZM28 38A19 19 0 1 1 27.9 38ZM72 38A19 19 0 1 1 71.9 38ZM46 55C46 78 42 88 32 96H68C58 88 54 78 54 55Z" },
  };
  const STAR = "M50 4L61 38H97L68 59L79 94L50 73L21 94L32 59L3 38H39Z";
  const RANK_NAMES = { A: "ace", T: "10", J: "jack", Q: "queen", K: "king" };

  function esc(text) {
    return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
  }

  function parseCard(code) {
    // "7S"; "JK" a joker; "7" a rank alone, in the games that read values and keep no suits
    if (code === "JK") return { rank: "JK", pip: "joker", label: "joker", color: "joker" };
    const rank = code[0], suit = SUITS[code[1]];
    const shown = rank === "T" ? "10" : rank, name = RANK_NAMES[rank] || rank;
    if (!suit) return { rank: shown, pip: null, label: name, color: "plain" };
    return { rank: shown, pip: code[1], label: `${name} of ${suit.name}`, color: suit.color };
  }

  function suitIcon(pip, x, y, size, extra = "") {
    if (!pip) return "";
    const d = pip === "joker" ? STAR : SUITS[pip].d;
    const color = pip === "joker" ? "joker" : SUITS[pip].color;
    return `<path class="pip ${color}" ${extra} d="${d}" transform="translate(${x} ${y}) scale(${size / 100})"/>`;
  }

  function faceIndex(info, x, y, scale) {
    // rank above a small suit: the corner index, the part of a card that shows in a fanned row
    const rank = info.rank;
    const narrow = rank.length > 1 ? ' textLength="14" lengthAdjust="spacingAndGlyphs"' : "";
    return `<text class="rank ${info.color}" x="${x}" y="${y + 13 * scale}" font-size="${14 * scale}"${narrow}>${esc(rank)}</text>` +
      suitIcon(info.pip, x + 1, y + 16 * scale, 11 * scale);
  }

  function cardSvg(card) {
    const known = typeof card.card === "string";
    const info = known ? parseCard(card.card) : null;
    const back = card.back ? ` back ${[...card.back].map((s) => SUITS[s] ? SUITS[s].name : s).join(", ")}` : "";
    let body, cls, label;
    if (!card.down && known) {
      cls = `card face ${info.color}`;
      label = info.label;
      body = '<rect class="card-bg" x="0.5" y="0.5" width="49" height="69" rx="4"/>' +
        faceIndex(info, 4, 3, 1) + (info.pip ? `<g class="big">${suitIcon(info.pip, 17, 30, 26)}</g>`
          : `<text class="rank big plain" x="25" y="54" text-anchor="middle" font-size="26"${info.rank.length > 1 ? ' textLength="28" lengthAdjust="spacingAndGlyphs"' : ""}>${esc(info.rank)}</text>`);
    } else {
      cls = `card down${known ? " known" : ""}`;
      label = known ? `face down: ${info.label}` : "face down";
      body = '<rect class="card-back" x="0.5" y="0.5" width="49" height="69" rx="4"/>' +
        '<rect class="card-back-frame" x="4" y="4" width="42" height="62" rx="2"/>';
      if (known) {
        // ghosted face in the corner: the open-mode solver knows it, the player does not see it
        body += '<rect class="ghost-bg" x="2.5" y="2.5" width="17" height="27" rx="2"/>' +
          `<g class="ghost">${faceIndex(info, 4, 3, 0.95)}</g>`;
      }
      if (card.back) {
        const suits = [...card.back];
        const top = 70 - 6 - suits.length * 11;
        body += `<rect class="ghost-bg" x="31" y="${top - 2}" width="15" height="${suits.length * 11 + 3}" rx="2"/>`;
        suits.forEach((s, i) => { body += suitIcon(s, 33, top + i * 11, 10); });
      }
    }
    return `<svg class="${cls}" viewBox="0 0 50 70" role="img" aria-label="${esc(label + back)}">` +
      `<title>${esc(label + back)}</title>${body}</svg>`;
  }

  function cardCode(card) {
    // the short text of a card, for titles: 7S, (7S) face down, ## unknown
    if (typeof card.card !== "string") return card.back ? `##[${card.back}]` : "##";
    return card.down ? `(${card.card})` : card.card;
  }

  // ---------------------------------------------------------------------------------------------
  // The picture: piles laid out by group, each group a row; a group whose piles are named RxCy
  // is laid out as that grid.
  function pileHtml(pile) {
    const cards = pile.cards;
    const size = pile.count !== undefined ? pile.count : cards.length;
    const title = `${pile.name}: ${size} card${size === 1 ? "" : "s"}` +
      (cards.length ? ` (bottom first: ${cards.map(cardCode).join(" ")})` : "");
    let inner;
    if (!cards.length) {
      inner = size > 0 ? cardSvg({ down: true }) : '<div class="card empty"></div>';
    } else if (pile.spread) {
      inner = cards.map((c) => `<div class="slot">${cardSvg(c)}</div>`).join("");
    } else {
      inner = cardSvg(cards[cards.length - 1]); // a squared pile: only the top is on view
    }
    const depth = !pile.spread && size > 1 ? (size > 8 ? " deep" : " thick") : "";
    const count = (size > 1 && !pile.spread) || pile.count !== undefined ? `<span class="count">${size}</span>` : "";
    return `<div class="pile ${pile.spread ? "spread" : "stack"}${depth}" data-pile="${esc(pile.name)}" title="${esc(title)}">` +
      `<div class="pile-name">${esc(pile.name)}${count}</div><div class="pile-cards">${inner}</div></div>`;
  }

  function pictureHtml(picture) {
    const groups = new Map();
    for (const pile of picture.piles) {
      const key = pile.group || "";
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(pile);
    }
    let html = "";
    for (const [name, piles] of groups) {
      const cells = piles.map((p) => /^R(\d+)C(\d+)$/i.exec(p.name));
      let body;
      if (piles.length > 1 && cells.every(Boolean)) {
        // from the group's own first row and column: a group may hold one row of a larger grid
        const row0 = Math.min(...cells.map((c) => Number(c[1]))) - 1, col0 = Math.min(...cells.map((c) => Number(c[2]))) - 1;
        body = '<div class="group-grid">' + piles.map((p, i) =>
          `<div style="grid-row:${cells[i][1] - row0};grid-column:${cells[i][2] - col0}">${pileHtml(p)}</div>`).join("") + "</div>";
      } else {
        body = `<div class="group-row">${piles.map(pileHtml).join("")}</div>`;
      }
      html += `<div class="group" data-group="${esc(name)}">` +
        (name ? `<div class="group-name">${esc(name)}</div>` : "") + body + "</div>";
    }
    return html || '<p class="muted">(no piles)</p>';
  }

  // ---------------------------------------------------------------------------------------------
  // The page.
  const $ = (id) => document.getElementById(id);
  const view = { data: null, step: 0 };

  function pct(p) {
    return `${(100 * p).toFixed(p > 0 && p < 0.001 ? 3 : 1)}%`;
  }

  function probabilityHtml(p, interval, samples, exact) {
    if (p === null || p === undefined) return '<span class="muted">not valued</span>';
    const [lo, hi] = interval && interval.length === 2 ? interval : [p, p];
    const how = exact ? "exact" : samples ? `${samples} samples, 95% interval` : "estimated, 95% interval";
    const range = lo === hi ? "" : ` <span class="muted">(${pct(lo)}–${pct(hi)})</span>`;
    return `<div class="bar" title="${esc(`${pct(p)}: ${how} ${pct(lo)}–${pct(hi)}`)}">` +
      `<div class="bar-fill" style="width:${100 * p}%"></div>` +
      `<div class="bar-interval" style="left:${100 * lo}%;width:${Math.max(0.5, 100 * (hi - lo))}%"></div></div>` +
      `<span class="bar-text">${pct(p)}${range}</span>`;
  }

  function verdictBadge(verdict) {
    return `<span class="verdict ${esc(verdict)}">${esc(verdict)}</span>`;
  }

  function dealSummary(deal) {
    if (deal.seed !== undefined) return `seed ${deal.seed}`;
    if (deal.position !== undefined) return "a set position";
    return "dealt piles";
  }

  function renderHeader(data) {
    document.title = `${data.game}: solodeck hints`;
    $("title").textContent = data.game;
    const chips = [
      ["deal", dealSummary(data.deal)],
      ["mode", data.mode],
      ["status", data.status],
    ];
    let html = chips.map(([k, v]) => `<span class="chip"><b>${k}</b> ${esc(v)}</span>`).join("");
    html += `<span class="chip"><b>verdict</b> ${verdictBadge(data.verdict)}</span>`;
    if (data.score_name || data.score !== null) {
      const sense = data.score_sense ? ` (${data.score_sense} is better)` : "";
      html += `<span class="chip"><b>${esc(data.score_name || "score")}</b> ${esc(data.score === null ? "–" : data.score)}` +
        `<span class="muted">${esc(sense)}</span></span>`;
    }
    html += `<span class="chip"><b>exact</b> ${data.exact ? "yes" : "no"}</span>`;
    if (data.mode === "blind" && data.win_probability !== undefined && data.win_probability !== null) {
      html += `<span class="chip wide"><b>win probability</b> ${probabilityHtml(data.win_probability, data.interval, data.samples, data.status === "solved")}</span>`;
    }
    const stats = data.stats || {};
    if (stats.nodes !== undefined) html += `<span class="chip muted">${esc(stats.nodes)} nodes, ${esc(stats.seconds)} s</span>`;
    if (data.generator) html += `<span class="chip muted">${esc(data.generator)}, version ${esc(data.version)} file</span>`;
    html += `<details class="deal"><summary>the deal</summary><pre>${esc(JSON.stringify(data.deal, null, 1))}</pre></details>`;
    $("summary").innerHTML = html;
  }

  function renderLine(data) {
    const plies = new Map(data.decisions.map((d, i) => [d.ply, i]));
    $("linecount").textContent = `(${data.line.length} move${data.line.length === 1 ? "" : "s"})`;
    $("line").innerHTML = data.line.map((move, ply) => {
      const step = plies.get(ply);
      const attr = step === undefined ? "" : ` data-step="${step}" tabindex="0"`;
      return `<li${attr}>${esc(move)}</li>`;
    }).join("") || '<li class="muted">no line: the search found no win and stopped</li>';
    $("line").onclick = (event) => {
      const item = event.target.closest("li[data-step]");
      if (item) go(Number(item.dataset.step));
    };
  }

  function renderStep() {
    const data = view.data, decision = data.decisions[view.step];
    const total = data.decisions.length;
    document.body.dataset.step = String(view.step + 1);
    // several players: the seat on turn, whose guarantee each move's value is
    const seat = decision.player ? ` · seat ${decision.player} to play` : "";
    $("stepinfo").textContent = `decision ${view.step + 1} of ${total}${seat}`;
    $("first").disabled = $("prev").disabled = view.step === 0;
    $("next").disabled = $("last").disabled = view.step === total - 1;
    $("ply").textContent = `before move ${decision.ply + 1}`;
    for (const item of $("line").querySelectorAll("li")) {
      const here = item.dataset.step === String(view.step);
      item.classList.toggle("current", here);
      if (here) item.setAttribute("aria-current", "step"); else item.removeAttribute("aria-current");
    }
    const current = $("line").querySelector("li.current");
    if (current && current.scrollIntoView) current.scrollIntoView({ block: "nearest" });

    // the position: the picture (version 2), else the text
    $("position").textContent = decision.position;
    if (decision.picture) {
      $("picture").innerHTML = pictureHtml(decision.picture);
      const facts = Object.entries(decision.picture.facts || {});
      $("facts").innerHTML = facts.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v === null ? "–" : v)}</dd>`).join("");
      $("textpos").hidden = false;
    } else {
      $("picture").innerHTML = `<pre class="textonly">${esc(decision.position)}</pre>` +
        '<p class="muted">(a version 1 file: the position as text only)</p>';
      $("facts").innerHTML = "";
      $("textpos").hidden = true;
    }
    renderMoves(data, decision);
    const hash = `#step=${view.step + 1}`;
    if (location.hash !== hash) history.replaceState(null, "", hash);
  }

  // a move's score; where a limit stopped its value, the proven bound on it (a ceiling where a
  // higher score is better, a floor where lower is)
  function scoreHtml(m, sense) {
    if (m.score !== null) return esc(m.score);
    if (m.score_bound === undefined) return '<span class="muted">–</span>';
    return `<span class="muted" title="not proven; the best score any win after it can have">${sense === "lower" ? "≥" : "≤"} ${esc(m.score_bound)}</span>`;
  }

  function renderMoves(data, decision) {
    const blind = data.mode === "blind";
    const scored = !blind && (data.score_name || decision.moves.some((m) => m.score !== null));
    const heads = ["#", "move", "verdict"];
    if (scored) heads.push(data.score_name || "score");
    if (blind) heads.push("win probability", "mean score on a win");
    heads.push("exact");
    $("moves-head").innerHTML = heads.map((h) => `<th>${esc(h)}</th>`).join("");
    $("movecount").textContent = `(${decision.moves.length} legal, best first)`;
    let rank = 0, previous = null;
    $("moves-body").innerHTML = decision.moves.map((m, i) => {
      const key = JSON.stringify([m.verdict, m.score, m.exact, m.win_probability, m.expected_score]);
      if (key !== previous) rank = i + 1; // ties share a rank
      previous = key;
      const played = m.move === decision.played;
      const tags = (m.best ? '<span class="tag best" title="best: its value equals the best value here">best</span>' : "") +
        (played ? '<span class="tag played" title="the move the line plays">played</span>' : "");
      const cells = [`<td class="rank">${rank}</td>`, `<td class="move"><code>${esc(m.move)}</code>${tags}</td>`,
        `<td>${verdictBadge(m.verdict)}</td>`];
      if (scored) cells.push(`<td class="num">${scoreHtml(m, data.score_sense)}</td>`);
      if (blind) {
        cells.push(`<td class="prob">${probabilityHtml(m.win_probability, m.interval, m.samples, m.exact)}</td>`);
        cells.push(`<td class="num">${m.expected_score === null || m.expected_score === undefined ? '<span class="muted">–</span>' : esc(Number(m.expected_score).toFixed(2))}</td>`);
      }
      cells.push(`<td>${m.exact ? "yes" : '<span class="muted" title="a limit stopped the solver before this value was proven">no</span>'}</td>`);
      const cls = ["move-row", played ? "played" : "", m.best ? "best" : "", m.verdict === "unwinnable" ? "lost" : ""].filter(Boolean).join(" ");
      return `<tr class="${cls}">${cells.join("")}</tr>`;
    }).join("");
  }

  function go(step) {
    const total = view.data.decisions.length;
    const next = Math.max(0, Math.min(total - 1, step));
    if (next === view.step && document.body.dataset.step) return;
    view.step = next;
    renderStep();
  }

  function stepFromHash() {
    const match = /step=(\d+)/.exec(location.hash);
    return match ? Number(match[1]) - 1 : 0;
  }

  function bindControls() {
    $("first").onclick = () => go(0);
    $("prev").onclick = () => go(view.step - 1);
    $("next").onclick = () => go(view.step + 1);
    $("last").onclick = () => go(Infinity);
    document.addEventListener("keydown", (event) => {
      if (event.altKey || event.ctrlKey || event.metaKey || !view.data || !view.data.decisions.length) return;
      const moves = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 };
      if (event.key in moves) go(view.step + moves[event.key]);
      else if (event.key === "Home") go(0);
      else if (event.key === "End") go(Infinity);
      else return;
      event.preventDefault();
    });
    window.addEventListener("hashchange", () => go(stepFromHash()));
  }

  function showError(title, details) {
    $("loading").hidden = true;
    $("viewer").hidden = true;
    const box = $("error");
    box.hidden = false;
    box.innerHTML = `<h2>${esc(title)}</h2>` +
      (details.length ? `<ul>${details.map((d) => `<li>${d}</li>`).join("")}</ul>` : "");
    document.body.dataset.state = "error";
  }

  async function fetchText(url, what) {
    let response;
    try {
      response = await fetch(url, { cache: "no-store" });
    } catch (exc) {
      throw new ViewerError(`Could not load ${what}`, [`${esc(url)}: ${esc(exc.message)}`]);
    }
    if (!response.ok) {
      const body = (await response.text()).slice(0, 200);
      throw new ViewerError(`Could not load ${what}`, [`${esc(url)}: HTTP ${response.status} ${esc(body)}`]);
    }
    return response.text();
  }

  class ViewerError extends Error {
    constructor(title, details) {
      super(title);
      this.details = details;
    }
  }

  function parseJson(text, what) {
    try {
      return JSON.parse(text);
    } catch (exc) {
      throw new ViewerError(`${what} is not valid JSON`, [esc(exc.message)]);
    }
  }

  async function load() {
    document.body.dataset.state = "loading";
    const params = new URLSearchParams(location.search);
    const hintsUrl = params.get("hints") || "hints.json";
    const schemaBase = params.get("schemas") || "schema/";
    const data = parseJson(await fetchText(hintsUrl, "the hint file"), "The hint file");
    if (kindOf(data) !== "object" || data.format !== "solodeck-hints") {
      throw new ViewerError("This is not a solodeck hint file", [
        `expected an object with "format": "solodeck-hints", got ${esc(describe(kindOf(data) === "object" ? data.format : data))}`]);
    }
    if (!Number.isInteger(data.version)) {
      throw new ViewerError("The hint file has no version", [`expected "version": 1 or 2, got ${esc(describe(data.version))}`]);
    }
    const schemaUrl = `${schemaBase}hints-v${data.version}.schema.json`;
    let schemaText;
    try {
      schemaText = await fetchText(schemaUrl, `the schema for version ${data.version}`);
    } catch (exc) {
      throw new ViewerError(`Hint file version ${data.version} is not known to this viewer`,
        [`no schema at ${esc(schemaUrl)} (a newer solodeck wrote the file?)`]);
    }
    const schema = parseJson(schemaText, "The schema");
    const errors = validate(schema, data);
    if (errors.length) {
      throw new ViewerError(`The hint file does not match schema version ${data.version}`, errors.map((e) =>
        `at <code>${esc(e.path || "(top level)")}</code>: ${esc(e.message)}`)
        .concat(errors.length >= MAX_ERRORS ? ["(and maybe more)"] : []));
    }
    view.data = data;
    renderHeader(data);
    renderLine(data);
    $("loading").hidden = true;
    $("viewer").hidden = false;
    document.body.dataset.steps = String(data.decisions.length);
    if (data.decisions.length) {
      view.step = Math.max(0, Math.min(data.decisions.length - 1, stepFromHash()));
      renderStep();
    } else {
      $("stepinfo").textContent = "no decisions in this file";
      for (const id of ["first", "prev", "next", "last"]) $(id).disabled = true;
      $("picture").innerHTML = '<p class="muted">The file has no decisions: the search stopped before it found a line.</p>';
      $("moves-body").innerHTML = "";
      $("textpos").hidden = true;
    }
    document.body.dataset.state = "ready";
  }

  // the drawing, for the play page (play.js), which loads this file too
  window.solodeckDraw = { esc, cardSvg, pictureHtml, probabilityHtml, verdictBadge };
  if (!$("viewer")) return; // the play page: nothing of the hint viewer runs there
  window.addEventListener("error", (event) => showError("The viewer failed", [esc(event.message)]));
  window.solodeckViewer = { validate, cardSvg, go, view }; // for tests and the curious
  bindControls();
  load().catch((exc) => {
    if (exc instanceof ViewerError) showError(exc.message, exc.details);
    else showError("The viewer failed", [esc(exc && exc.stack ? exc.stack : exc)]);
  });
})();
