// The tests' load balancer (end2end/support/balancer.mjs) as a process of its own, for the load
// bench: balances over the instances given as arguments, prints its URL, and runs until killed.
import { startBalancer } from '../end2end/support/balancer.mjs';

const balancer = await startBalancer(process.argv.slice(2));
console.log(balancer.url);
