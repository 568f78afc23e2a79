"""A championship round on several nodes, CI-sized: ``bench/bench_champ_round.py --quick``.

Three ASGI web nodes, two Celery workers and a beat on the test database and the shared broker;
200 players of an individual tournament (50 tables) play a short round, each table's device
sending its deals round-robin across the nodes with Idempotency-Keys; one web node is killed
(SIGKILL) mid-round and started again. Every deal answered 2xx is stored, none twice, and no
more requests failed than were in flight at the kill. Runs where CI runs it: PostgreSQL and a
broker (``DATABASE_URL``, ``CELERY_BROKER_URL``, as ``.ci/run`` sets them).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from tests.pg import ONLY_ON_POSTGRES, database_url

BENCH = Path(__file__).resolve().parent.parent / "bench"

pytestmark = [
    *ONLY_ON_POSTGRES,
    pytest.mark.slow,
    pytest.mark.celery_worker,
    pytest.mark.skipif(not os.environ.get("CELERY_BROKER_URL"),
                       reason="needs CELERY_BROKER_URL (a shared broker); .ci/run sets it"),
]


@pytest.mark.django_db(transaction=True)
def test_a_web_node_killed_mid_round_loses_no_deal_and_stores_none_twice(tmp_path):
    sys.path.insert(0, str(BENCH))
    try:
        from bench_champ_round import play_round
        from hall import server_env
    finally:
        sys.path.remove(str(BENCH))
    env = server_env(database_url())
    env.update(CELERY_BROKER_URL=os.environ["CELERY_BROKER_URL"],
               REDIS_URL=os.environ.get("REDIS_URL", ""), CONN_MAX_AGE="0")  # ASGI: as the bench

    figures = play_round(env, tmp_path, players=200, seconds=12.0, deal_seconds=3.0)

    print(figures)
    assert figures["deals_accepted"] == figures["deals_planned"] == 50 * 4
    assert figures["champ_round_deals_lost"] == 0
    assert figures["champ_round_deals_duplicated"] == 0
    assert figures["champ_node_kill_5xx"] <= figures["champ_node_kill_in_flight"]
