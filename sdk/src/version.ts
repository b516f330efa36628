/** Version of the plugin contract. Plugins declare the range they need in their manifest (`sdk`). */
export const SDK_VERSION = '1.0.0';
