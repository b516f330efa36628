// onnxruntime-node 1.30 on Linux starts Microsoft's telemetry client when it creates its first session: it writes
// `mat-debug-<pid>.log` and `.ses` into the temporary folder and tries to upload events to an outside collector. A
// self-hosted service must not phone home, nor leave files behind. The runtime reads ORT_DISABLE_TELEMETRY from the
// real process environment, which worker threads cannot change (theirs is a copy): so it is set here, on the main
// thread, before anything can load the runtime. An operator's own value is kept.
process.env.ORT_DISABLE_TELEMETRY ??= '1';
export {};
