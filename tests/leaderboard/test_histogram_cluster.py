"""A board split by score on a real three-node Redis Cluster, started here on spare ports.

Every script and multi-key command must stay within one hash slot (a cluster refuses the
others), and a board must spread over the nodes: both are checked on 3,000 players. Then the
product's own path on the cluster: verified wins recorded, the boards rebuilt by the command,
ranks, pages, around a player and the places with their counts read back.
"""

import random
import shutil
import socket
import subprocess
import time

import pytest
import redis
from redis.cluster import RedisCluster
from redis.exceptions import RedisClusterException

from leaderboard.index.histogram.board import HistogramBoard, Row, histogram_client, percentile, sort_key

pytestmark = pytest.mark.stack

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"
REDIS_CLI = shutil.which("redis-cli") or "/usr/bin/redis-cli"
BOARD = "classic:all"
T0 = 1_764_600_000
SCORES = [*range(6960, 7000), *[7000] * 40, 7120, 2400, 150]  # many ties: 7000 holds a third


def spare_ports(count: int) -> list[int]:
    """Ports free for a node and its cluster bus (port + 10000), both below the ephemeral range."""
    ports = []
    for port in random.Random().sample(range(12000, 22000), 200):
        if _free(port) and _free(port + 10000):
            ports.append(port)
            if len(ports) == count:
                return ports
    raise RuntimeError("no spare ports")


def _free(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    if not shutil.which("redis-server") and not shutil.which(REDIS_SERVER):
        pytest.skip("needs redis-server")
    folder = tmp_path_factory.mktemp("cluster")
    ports = spare_ports(3)
    nodes = []
    try:
        for port in ports:
            nodes.append(
                subprocess.Popen(
                    [
                        REDIS_SERVER,
                        "--port",
                        str(port),
                        "--bind",
                        "127.0.0.1",
                        "--cluster-enabled",
                        "yes",
                        "--cluster-config-file",
                        f"nodes-{port}.conf",
                        "--dir",
                        str(folder),
                        "--save",
                        "",
                        "--appendonly",
                        "no",
                        "--logfile",
                        f"{folder}/redis-{port}.log",
                    ],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )  # fmt: skip
            )
        for port, node in zip(ports, nodes, strict=True):
            _wait_for(lambda port=port, node=node: node.poll() is None and redis.Redis(port=port).ping())
        assert all(node.poll() is None for node in nodes), "a node stopped: see its log in " + str(folder)
        subprocess.run(
            [REDIS_CLI, "--cluster", "create", *(f"127.0.0.1:{port}" for port in ports),
             "--cluster-replicas", "0", "--cluster-yes"],
            check=True, capture_output=True, timeout=30,
        )  # fmt: skip
        _wait_for(lambda: all(_cluster_ok(port) for port in ports))
        client = histogram_client(f"redis+cluster://127.0.0.1:{ports[0]}")
        yield client, ports
        client.close()
    finally:
        for node in nodes:  # only the nodes started here
            node.terminate()
        for node in nodes:
            node.wait(timeout=10)


def _cluster_ok(port: int) -> bool:
    info = redis.Redis(port=port, decode_responses=True).execute_command("CLUSTER INFO")
    return info.get("cluster_state") == "ok" if isinstance(info, dict) else "cluster_state:ok" in info


def _wait_for(check, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            if check():
                return
        except redis.ConnectionError:
            pass
        if time.monotonic() > deadline:
            raise TimeoutError("the cluster did not come up")
        time.sleep(0.05)


def test_a_board_spreads_over_three_nodes_and_ranks_exactly(cluster):
    client, ports = cluster
    assert isinstance(client, RedisCluster)
    board = HistogramBoard(client, shard_size=8)
    rng = random.Random(7)
    rows = [(user, rng.choice(SCORES), T0 + rng.randint(0, 20))
            for user in range(1, 3001)]  # fmt: skip

    assert board.build(BOARD, rows) == 3000
    # Moves after the build: raises, lower writes (ignored), removals.
    best = {user: (score, seconds) for user, score, seconds in rows}
    for user in range(1, 3001, 7):
        board.write(BOARD, user_id=user, score=7130, seconds=T0 + 30)
        best[user] = (7130, T0 + 30)
    for user in range(2, 3001, 11):
        board.write(BOARD, user_id=user, score=100, seconds=T0)  # lower: no change
    for user in range(3, 3001, 13):
        if board.remove(BOARD, user_id=user):
            del best[user]

    expected = sorted(best.items(), key=lambda item: (-sort_key(*item[1]), item[0]))
    expected_rows = [Row(i + 1, user, score, seconds) for i, (user, (score, seconds)) in enumerate(expected)]
    assert board.count(BOARD) == len(expected)
    assert board.top(BOARD, limit=50) == expected_rows[:50]
    assert board.top(BOARD, offset=1000, limit=50) == expected_rows[1000:1050]
    for row in expected_rows[::97]:
        assert board.rank(BOARD, user_id=row.user_id) == row.rank
        assert (
            board.around(BOARD, user_id=row.user_id, span=10)
            == expected_rows[max(0, row.rank - 11) : row.rank + 10]
        )

    keys_per_node = {}
    for port in ports:
        node = redis.Redis(port=port)
        keys_per_node[port] = [key.decode() for key in node.scan_iter(match="lbh:*", count=1000)]
    assert all(keys_per_node.values()), {port: len(keys) for port, keys in keys_per_node.items()}
    assert all(any("|s" in key for key in keys) for keys in keys_per_node.values())  # score sets
    assert all(any("|p" in key for key in keys) for keys in keys_per_node.values())  # player records

    assert board.repair(BOARD) == 0
    board.drop(BOARD)
    assert not any(redis.Redis(port=port).dbsize() for port in ports)


def test_a_script_may_touch_keys_of_one_hash_slot_only(cluster):
    """Why boards are split and tagged: today's index keeps a board's sorted set and its details
    (``lb:classic:all``, ``lb:classic:all:d``) in different slots, which one script may not touch."""
    client, _ports = cluster
    board = HistogramBoard(client)
    score_set = board.score_key(BOARD, 7000)

    with pytest.raises((redis.RedisError, RedisClusterException), match="(?i)slot"):
        client.eval("return 1", 2, "lb:classic:all", "lb:classic:all:d")
    assert client.eval("return 1", 2, score_set, f"{score_set}:v") == 1
    assert client.keyslot(board.shard_key(BOARD, 5)) == client.keyslot(f"{board.shard_key(BOARD, 5)}:w:5")


def _keys_per_node(ports: list[int]) -> dict[int, list[str]]:
    return {port: [key.decode() for key in redis.Redis(port=port).scan_iter(count=1000)] for port in ports}


@pytest.mark.django_db
def test_the_service_records_ranks_and_places_wins_on_the_cluster(
    cluster, client, settings, frozen_now, monkeypatch, caplog
):
    import datetime as dt
    import io

    from django.core.management import call_command
    from factories import WINNING_CODES, player_make, win

    from leaderboard import selectors
    from leaderboard.index.histogram.index import HistogramBoardIndex
    from leaderboard.index.wiring import board_index, index_reset
    from leaderboard.selectors import entry_rank_sql, leaderboard_around, leaderboard_page, leaderboard_place
    from leaderboard.tasks import board_rebuild

    _client, ports = cluster
    noon = dt.datetime(2026, 11, 29, 12, 0, 0, tzinfo=dt.UTC)
    deal_board = f"deal:{WINNING_CODES['classic'][0]}"
    started = []
    monkeypatch.setattr(board_rebuild, "delay", lambda **kwargs: started.append(kwargs["board"]))
    settings.LEADERBOARD_REDIS_URL = f"redis+cluster://127.0.0.1:{ports[0]}"
    settings.LEADERBOARD_INDEX = "sorted_set"  # the cluster's address alone chooses boards split by score
    index_reset()

    def from_sql(read):
        kept = settings.LEADERBOARD_REDIS_URL, settings.REDIS_URL
        settings.LEADERBOARD_REDIS_URL = settings.REDIS_URL = None
        index_reset()
        try:
            return read()
        finally:
            settings.LEADERBOARD_REDIS_URL, settings.REDIS_URL = kept
            index_reset()

    try:
        assert isinstance(board_index(), HistogramBoardIndex)
        players = [player_make(f"c{index:02d}") for index in range(12)]
        for index, user in enumerate(players):  # ties of score and second, broken by user id
            win(user, at=noon + dt.timedelta(seconds=index % 3), extra_moves=index % 4)
        assert leaderboard_page(board=BOARD).source == "sql"  # not built: SQL answers, one rebuild starts
        assert started == [BOARD]

        settings.REDIS_URL, redis_url = None, settings.REDIS_URL  # the command needs the index's URL alone
        out = io.StringIO()
        call_command("rebuild_leaderboards", "--board", BOARD, "--board", deal_board, "--force",
                     "--no-progress", stdout=out)  # fmt: skip
        settings.REDIS_URL = redis_url
        assert f"{BOARD}: 12 entries" in out.getvalue() and f"{deal_board}: 12 entries" in out.getvalue()

        # A new verified win: its places are counted on the cluster inside the transaction, then written.
        counted = []  # SQL's reads of the entries' keys: ranked (counted by SQL) or not
        original = selectors._entry_keys_sql
        monkeypatch.setattr(
            selectors,
            "_entry_keys_sql",
            lambda entries, ranked: counted.append(ranked) or original(entries, ranked=ranked),
        )
        newcomer = player_make("newcomer")
        result = win(newcomer, at=noon + dt.timedelta(seconds=1), extra_moves=1)
        result.refresh_from_db()
        expected_rank = entry_rank_sql(board=BOARD, user_id=newcomer.pk)
        assert (result.ranks[BOARD], result.ranks_of[BOARD]) == (expected_rank, 13)
        assert result.ranks[deal_board] == expected_rank
        assert counted == [False, True]  # the built boards ranked on the cluster; the three others by SQL

        page = leaderboard_page(board=BOARD, page_size=5)
        around = leaderboard_around(board=BOARD, user_id=newcomer.pk, span=3)
        place = leaderboard_place(board=BOARD, user_id=newcomer.pk)
        assert (page.source, around.source) == ("redis", "redis")
        assert place == (expected_rank, 13)
        assert [entry.rank for entry in around.entries if entry.user_id == newcomer.pk] == [expected_rank]
        second = leaderboard_page(board=BOARD, after=page.entries[-1].cursor, page_size=5)
        assert [entry.rank for entry in second.entries] == [6, 7, 8, 9, 10]
        import dataclasses

        on_sql = from_sql(
            lambda: (
                leaderboard_page(board=BOARD, page_size=5),
                leaderboard_around(board=BOARD, user_id=newcomer.pk, span=3),
                leaderboard_page(board=BOARD, after=page.entries[-1].cursor, page_size=5),
            )
        )
        assert [page, around, second] == [dataclasses.replace(read, source="redis") for read in on_sql]

        # The API: a public read around a player by name, and the player's own places with `of`.
        url = "/api/leaderboards/?rules=classic&around=newcomer"
        from_cluster = client.get(url).json()
        assert from_cluster == from_sql(lambda: client.get(url).json())
        client.force_login(newcomer)
        ranks = client.get("/api/me/").json()["rules"]["classic"]["ranks"]
        assert ranks["all"] == {"board": BOARD, "rank": expected_rank, "of": 13}
        assert percentile(rank=ranks["all"]["rank"], count=ranks["all"]["of"]) == 100 * expected_rank / 13

        keys = _keys_per_node(ports)
        assert all(any(key.startswith("lbh:{classic:all|") for key in found) for found in keys.values())
        assert board_index().built_boards() == sorted([BOARD, deal_board])
        assert "leaderboard index unreachable" not in caplog.text  # no read fell back for a failure
    finally:
        for port in ports:  # the names kept beside the boards too: the next test counts every key
            redis.Redis(port=port).flushall()
        index_reset()
