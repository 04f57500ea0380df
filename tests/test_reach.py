"""The cycle-aware search (solvers/reach.py) against networkx on random directed graphs.

A toy game whose positions are the nodes of a random digraph (moves are its edges, some nodes
are won) has every kind of cycle the search must get right: a position is winnable exactly when
a won node is reachable from it, which networkx answers independently. One solver answers every
node of a graph in turn, so a position wrongly stored as lost while on a cycle would show up
in a later answer.
"""
from __future__ import annotations

import random

import networkx as nx
import pytest

from solodeck.api import Game, Outcome, State
from solodeck.result import Limits
from solodeck.solvers import ReachabilitySolver


class GraphState(State):
    __slots__ = ("graph", "node")

    def __init__(self, graph, node):
        self.graph, self.node = graph, node

    def legal_moves(self):
        return [] if self.graph.nodes[self.node]["won"] else sorted(self.graph.successors(self.node))

    def play(self, move):
        assert move in self.legal_moves()
        return type(self)(self.graph, move)

    def outcome(self):
        if self.graph.nodes[self.node]["won"]:
            return Outcome(True, None)
        return None if self.legal_moves() else Outcome(False, None)

    def key(self):
        return self.node


class GraphGame(Game):
    name, title, acyclic = "graph", "a random digraph", False

    def parse_move(self, text):
        return int(text)


def random_graph(seed, n=40, p=0.06, won_share=0.05):
    rng = random.Random(seed)
    graph = nx.gnp_random_graph(n, p, seed=seed, directed=True)
    for node in graph.nodes:
        graph.nodes[node]["won"] = rng.random() < won_share
    return graph


@pytest.mark.parametrize("seed", range(30))
@pytest.mark.parametrize("prune", [True, False])
def test_verdicts_equal_reachability_of_a_won_node(seed, prune):
    graph = random_graph(seed)
    won = [v for v in graph.nodes if graph.nodes[v]["won"]]
    game = GraphGame()
    solver = ReachabilitySolver(game, Limits(), prune=prune)
    for node in rng_order(graph, seed):
        expected = any(nx.has_path(graph, node, w) for w in won)
        result = solver.solve(GraphState(graph, node))
        assert result.exact and (result.verdict == "winnable") == expected, node
        if expected:  # the reported line was replayed to a win by finish_open; check it walks edges
            path = [node] + result.line
            assert all(graph.has_edge(a, b) for a, b in zip(path, path[1:]))
        value, exact = solver.value(GraphState(graph, node))
        assert exact and (value[0] == 1) == expected


def rng_order(graph, seed):
    nodes = list(graph.nodes)
    random.Random(seed).shuffle(nodes)
    return nodes


def test_a_limit_is_never_a_loss():
    graph = nx.DiGraph()
    graph.add_nodes_from(range(3000), won=False)
    graph.add_edges_from((i, i + 1) for i in range(2999))  # a long corridor, no win anywhere
    result = ReachabilitySolver(GraphGame(), Limits(max_states=100)).solve(GraphState(graph, 0))
    assert result.verdict == "unknown" and result.status == "memory-limit" and not result.exact


# -- games with a score: the best outcome reachable ------------------------------------------------
class ScoredState(GraphState):
    """A node's ``score`` is what the player holds there; a line that stops making progress is a
    loss with it (stop_outcome), a won node a win with it. The bound is the graph's best score."""

    __slots__ = ()

    def outcome(self):
        data = self.graph.nodes[self.node]
        if data["won"]:
            return Outcome(True, data["score"])
        return None if self.legal_moves() else Outcome(False, data["score"])

    def stop_outcome(self):
        return Outcome(False, self.graph.nodes[self.node]["score"])

    def score_bound(self):
        return self.graph.graph["best"]


class ScoredGame(GraphGame):
    name, score_name, score_sense = "scored graph", "points", "higher"


def scored_graph(seed):
    graph = random_graph(seed, won_share=0.1)
    rng = random.Random(seed + 1)
    for node in graph.nodes:
        graph.nodes[node]["score"] = rng.randrange(10)
    graph.graph["best"] = max(graph.nodes[v]["score"] for v in graph.nodes)
    return graph


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("prune", [True, False])
def test_scored_values_equal_the_best_node_reachable(seed, prune):
    """The value is the best, over the nodes reachable (networkx; a won node ends the game), of
    (won?, score)."""
    graph = scored_graph(seed)
    game = ScoredGame()
    moves = graph.copy()  # a won node ends the game: no moves out of it
    moves.remove_edges_from([e for e in graph.edges if graph.nodes[e[0]]["won"]])
    for node in rng_order(graph, seed):
        reach = nx.descendants(moves, node) | {node}
        expected = max((1 if graph.nodes[v]["won"] else 0, graph.nodes[v]["score"]) for v in reach)
        result = ReachabilitySolver(game, Limits(), prune=prune).solve(ScoredState(graph, node))
        assert result.exact and (result.verdict == "winnable") == (expected[0] == 1), node
        assert result.score == expected[1], node
        path = [node] + result.line
        assert all(graph.has_edge(a, b) for a, b in zip(path, path[1:]))
        value, exact = ReachabilitySolver(game, Limits(), prune=prune).value(ScoredState(graph, node))
        assert exact and value == expected


def test_a_limit_keeps_the_best_met_unproven():
    graph = nx.DiGraph()
    graph.add_nodes_from(range(3000), won=False, score=0)
    graph.add_edges_from((i, i + 1) for i in range(2999))
    graph.add_node(-1, won=True, score=1)  # a win off the corridor early on; the corridor may hold better
    graph.add_edge(5, -1)
    graph.graph["best"] = 9
    result = ReachabilitySolver(ScoredGame(), Limits(max_states=100)).solve(ScoredState(graph, 0))
    assert result.verdict == "winnable" and result.score == 1 and not result.exact
