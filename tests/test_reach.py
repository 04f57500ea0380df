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
        return GraphState(self.graph, move)

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


def test_a_game_with_a_score_is_refused():
    class Scored(GraphGame):
        score_sense = "higher"

    with pytest.raises(Exception, match="score"):
        ReachabilitySolver(Scored())
