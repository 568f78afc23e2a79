// A small typed round: the types are openapi-typescript's of /api/v1/schema/ (default flags),
// the calls openapi-fetch's. `tsc --strict` checks it; run.mjs runs it against a server.
import createClient from "openapi-fetch";
import type { components, paths } from "./schema.js";

type Schemas = components["schemas"];
type ErrorBody = Schemas["ErrorDetail"] | Schemas["FieldErrors"];
type Seat = Schemas["SeatEnum"];

export interface Played {
  tournament: number;
  round: number;
  parties: number[];
  points: Record<string, number>[];
  protocols: string[];
  leader: number;
}

/** The message of an error answer, whichever of the two documented shapes it has. */
export function message(error: ErrorBody): string {
  if ("detail" in error && typeof error.detail === "string") {
    return error.detail;
  }
  return Object.entries(error)
    .map(([field, found]) => `${field}: ${Array.isArray(found) ? found.join(" ") : "…"}`)
    .join("; ");
}

/** The data of a call that succeeded; an error answer stops the round with its message. */
function ok<T>(result: { data?: T; error?: ErrorBody; response: Response }): T {
  if (result.error !== undefined || result.data === undefined) {
    const text = result.error === undefined ? "no body" : message(result.error);
    throw new Error(`${result.response.status} ${result.response.url}: ${text}`);
  }
  return result.data;
}

/** A call answered with no body (204); an error answer stops the round. */
function done(result: { error?: ErrorBody; response: Response }): void {
  if (result.error !== undefined || !result.response.ok) {
    const text = result.error === undefined ? "no body" : message(result.error);
    throw new Error(`${result.response.status} ${result.response.url}: ${text}`);
  }
}

const DOMINO: Record<number, { seat: Seat; pips: Record<string, number> }> = {
  1: { seat: "a1", pips: { a1: 0, a2: 10, b1: 25, b2: 25 } },
  2: { seat: "b1", pips: { a1: 20, a2: 20, b1: 0, b2: 10 } },
};

/** Log in, set up a tournament, play round 1 to its end, sign the protocols, close it. */
export async function playRound(baseUrl: string, username: string, password: string):
    Promise<Played> {
  const anonymous = createClient<paths>({ baseUrl });
  const login = ok(await anonymous.POST("/api/v1/auth/token/", {
    body: { username, password },
  }));
  const api = createClient<paths>({
    baseUrl, headers: { Authorization: `Token ${login.token}` },
  });

  const cup = ok(await api.POST("/api/v1/tournaments/", {
    body: { name: "Typed Cup", rule_set: "sport", format: "pairs", time_zone: "Europe/Moscow" },
  }));
  ok(await api.PATCH("/api/v1/tournaments/{id}/regulations/", {
    params: { path: { id: cup.id } }, body: { target: 100 },
  }));
  const players: Schemas["Player"][] = [];
  for (const name of ["Anna", "Boris", "Clara", "Denis", "Elena", "Fyodor", "Galina", "Igor"]) {
    players.push(ok(await api.POST("/api/v1/players/", {
      body: { tournament: cup.id, name },
    })));
  }
  for (let k = 0; k < players.length; k += 2) {
    const [first, second] = [players[k], players[k + 1]];
    if (first === undefined || second === undefined) {
      throw new Error("an odd number of players");
    }
    ok(await api.POST("/api/v1/pairs/", {
      body: { tournament: cup.id, player1: first.id, player2: second.id },
    }));
  }
  for (const number of [1, 2]) {
    ok(await api.POST("/api/v1/tables/", { body: { tournament: cup.id, number } }));
  }

  const round = ok(await api.POST("/api/v1/rounds/", { body: { tournament: cup.id } }));
  const path = { params: { path: { id: round.id } } };
  const draw = ok(await api.POST("/api/v1/rounds/{id}/generate/", { ...path, body: {} }));
  ok(await api.POST("/api/v1/rounds/{id}/publish/", path));
  ok(await api.POST("/api/v1/rounds/{id}/start/", path));
  const listed = ok(await api.GET("/api/v1/parties/", {
    params: { query: { round: round.id, tournament: cup.id } },
  }));

  const played: Played = {
    tournament: cup.id, round: round.id, parties: [], points: [], protocols: [], leader: 0,
  };
  for (const party of listed.results) {
    const deal = DOMINO[party.table_number];
    if (deal === undefined) {
      throw new Error(`no deals for table ${party.table_number}`);
    }
    let summary: Schemas["PartySummary"] | undefined;
    for (let number = 1; summary?.status !== "finished"; number += 1) {
      const answer = ok(await api.POST("/api/v1/parties/{id}/deal/", {
        params: { path: { id: party.id }, header: { "Idempotency-Key": `${party.id}-${number}` } },
        body: {
          outcome: "domino", seat: deal.seat, pips: deal.pips, number,
          version: summary?.version ?? party.version,
        },
      }));
      summary = answer.party;
    }
    played.parties.push(party.id);
    played.points.push(summary.totals.points);
    if (summary.loser.side === summary.winner.side) {
      throw new Error(`party ${party.id}: the loser is the winner`);
    }

    const protocolPath = { params: { path: { id: party.id } } };
    for (const side of [party.pairs.a, party.pairs.b]) {
      for (const player of side?.players ?? []) {
        done(await api.POST("/api/v1/signing-pins/", { body: { player: player.id, pin: "2468" } }));
        ok(await api.POST("/api/v1/party-protocols/{id}/sign/", {
          ...protocolPath, body: { player: player.id, pin: "2468" },
        }));
      }
    }
    const state = ok(await api.GET("/api/v1/party-protocols/{id}/", protocolPath));
    const signed = ok(await api.POST("/api/v1/party-protocols/{id}/countersign/", {
      ...protocolPath, body: { version: state.party_version },
    }));
    played.protocols.push(signed.public_id);
  }
  ok(await api.POST("/api/v1/rounds/{id}/close/", path));

  const standings = ok(await api.GET("/api/v1/tournaments/{id}/standings/", {
    params: { path: { id: cup.id }, query: { by: "pair" } },
  }));
  const top = standings.lines[0];
  if (top === undefined || draw.parties.length !== played.parties.length) {
    throw new Error("no standings, or not every party of the draw was played");
  }
  played.leader = top.entrant;
  return played;
}
