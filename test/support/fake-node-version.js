// Preloaded (NODE_OPTIONS=--require) into a service a spec starts: it reports the Node release
// named in FAKE_NODE_VERSION, as a host running that release would (node-engines.e2e-spec.ts).
const fake = process.env.FAKE_NODE_VERSION;
if (fake) Object.defineProperty(process, 'version', { value: fake });
