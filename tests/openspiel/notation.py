"""The project's notation for OpenSpiel's Kalah (`mancala`) and Oware
(`oware`) states: positions and moves both ways. Shared by the comparison
(tests/openspiel/compare.py) and the UMI adapter over OpenSpiel's agents
(bench/openspiel_umi.py), so that the mapping is written once."""


class KalahAdapter:
    """OpenSpiel's `mancala`: board[0] is North's store, board[1..6]
    South's holes 1..6, board[7] South's store, board[8..13] North's holes
    7..12; the action is the board index. Player 0 is South."""

    game_id = "kalah"
    openspiel = "mancala"

    @staticmethod
    def board(state):
        values = [int(v) for v in state.observation_tensor(0)]
        return values[:14], values[14]

    def position(self, state):
        board, player = self.board(state)
        holes = board[1:7] + board[8:14]
        side = "S" if player == 0 else "N"
        return f"kalah {','.join(map(str, holes))} {side} {board[7]}/{board[0]}"

    def key(self, state):
        board, player = self.board(state)
        return (tuple(board), player)

    @staticmethod
    def move(state, action):
        return str(action if action <= 6 else action - 1)

    def final_scores(self, state):
        board, _ = self.board(state)
        return (sum(board[1:8]), sum(board[8:14]) + board[0])

    # A finished Kalah position keeps its seeds in both implementations.
    compare_finished_position = True


class OwareAdapter:
    """OpenSpiel's `oware`: houses 0..5 are South's holes 1..6, 6..11
    North's holes 7..12; the action is the house within the mover's row.
    Its observation string is `player | score0 score1 | seeds...`."""

    game_id = "oware"
    openspiel = "oware"

    @staticmethod
    def board(state):
        player, scores, seeds = state.observation_string(0).split(" | ")
        return [int(s) for s in seeds.split()], [int(s) for s in scores.split()], int(player)

    def position(self, state):
        seeds, scores, player = self.board(state)
        side = "S" if player == 0 else "N"
        return f"oware {','.join(map(str, seeds))} {side} {scores[0]}/{scores[1]}"

    def key(self, state):
        return state.observation_string(0)

    @staticmethod
    def move(state, action):
        return str(action + 1 + 6 * state.current_player())

    def final_scores(self, state):
        _, scores, _ = self.board(state)
        return tuple(scores)

    # OpenSpiel sweeps the board into the scores when an Oware game ends;
    # the project keeps the final position and puts the sweep in the scores.
    compare_finished_position = False


ADAPTERS = {adapter.game_id: adapter for adapter in (KalahAdapter(), OwareAdapter())}


def action_of(adapter, state, move):
    """OpenSpiel's action id for the project's move `move` in `state`, or
    None when it is not one of the state's legal actions."""
    for action in state.legal_actions():
        if adapter.move(state, action) == move:
            return action
    return None


def reach(adapter, game, position, max_plies=8, budget=5000):
    """An OpenSpiel state showing `position` (the project's position string),
    found by play from OpenSpiel's start: its Python API cannot set up a
    board, so the shortest action sequence (up to `max_plies`) that leads
    there is searched. None when there is none that short, or when it is not
    found within `budget` states (so that a position deep in a game costs a
    bounded time: well under 0.1 s). Positions a few plies from the start
    (the opening suites') are found at once; seeds only ever move into the
    stores, so a state with more in a store than the target is not searched
    further."""
    target = str(position)
    stores = [int(s) for s in target.split()[-1].split("/")]

    def store_ok(state):
        ours = [int(s) for s in adapter.position(state).split()[-1].split("/")]
        return ours[0] <= stores[0] and ours[1] <= stores[1]

    for depth in range(max_plies + 1):
        seen = set()
        stack = [(game.new_initial_state(), 0)]
        while stack:
            budget -= 1
            if budget < 0:
                return None
            state, plies = stack.pop()
            if adapter.position(state) == target:
                return state
            key = (adapter.key(state), plies)
            if plies == depth or state.is_terminal() or key in seen or not store_ok(state):
                continue
            seen.add(key)
            for action in state.legal_actions():
                child = state.clone()
                child.apply_action(action)
                stack.append((child, plies + 1))
    return None
