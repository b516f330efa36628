// Load from another process against several servers at once (autocannon spreads its connections over the URLs
// round robin, as a load balancer would): argv[2] is JSON { urls, headers, seconds, connections }; prints the report.
import autocannon from 'autocannon';

const { urls, headers, seconds, connections } = JSON.parse(process.argv[2]);
const result = await autocannon({ url: urls, headers, duration: seconds, connections });
process.stdout.write(JSON.stringify(result));
