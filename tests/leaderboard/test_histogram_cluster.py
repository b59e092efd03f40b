"""A board split by score on a real three-node Redis Cluster, started here on spare ports.

Every script and multi-key command must stay within one hash slot (a cluster refuses the
others), and a board must spread over the nodes: both are checked on 3,000 players.
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

from leaderboard.histogram import HistogramBoard, Row, histogram_client, sort_key

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
