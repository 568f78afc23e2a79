// Runs the compiled round (out/round.js) against a server: node run.mjs <base URL> <username>
// <password>; prints what was played as JSON.
import { playRound } from "./out/round.js";

const [baseUrl, username, password] = process.argv.slice(2);
console.log(JSON.stringify(await playRound(baseUrl, username, password)));
