/** One labelled value of a plugin gauge. */
export interface PluginGaugeSample {
  labels: Record<string, string>;
  value: number;
}

/**
 * A gauge a plugin reports in `GET /api/metrics` as `cerebro_plugin_<plugin id>_<name>` (name: lower case, digits
 * and `_`). `read` runs at every scrape and must be cheap (read fields, no I/O); an exception makes the gauge NaN (unknown) for
 * that scrape, or leaves its labelled samples out.
 */
export interface PluginGauge {
  help: string;
  /** Label names of the samples; none: `read` returns one number. */
  labels?: readonly string[];
  read(): number | readonly PluginGaugeSample[];
}
