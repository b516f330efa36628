/** "Chrome 156 en Linux" out of a User-Agent line: enough to recognise one's own browsers in the session list. */
export function describeAgent(agent: string | null | undefined): string {
  if (!agent) return 'Navegador desconocido';
  const browser = [
    [/Edg\/(\d+)/, 'Edge'],
    [/Firefox\/(\d+)/, 'Firefox'],
    [/OPR\/(\d+)/, 'Opera'],
    [/(?:Headless)?Chrome\/(\d+)/, 'Chrome'],
    [/Version\/(\d+).*Safari/, 'Safari'],
    [/curl\/(\d+)/, 'curl'],
  ] as const;
  const os = [
    [/Android/, 'Android'],
    [/iPhone|iPad/, 'iOS'],
    [/Windows/, 'Windows'],
    [/Mac OS X|Macintosh/, 'macOS'],
    [/Linux/, 'Linux'],
  ] as const;
  const b = browser.find(([re]) => re.test(agent));
  const o = os.find(([re]) => re.test(agent));
  const name = b ? `${b[1]} ${b[0].exec(agent)![1]}` : agent.split(/[ /]/)[0] || 'Navegador';
  return o ? `${name} en ${o[1]}` : name;
}
