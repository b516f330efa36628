/**
 * Leads other modules collect (a landing's contact form) handed to the module that follows them up with a person.
 * Declared in the contract so `ventas` (which keeps conversations) and its senders share one definition without
 * depending on each other's packages.
 */

/** One person who asked to be contacted, as they wrote it. */
export interface LeadInput {
  nombre: string;
  /** An email address or a phone number. */
  contacto: string;
  /** What they wrote; may be empty. */
  mensaje: string;
  /** Where it came from, said to the person who follows it up (e.g. «la landing "Zapatillas"»). */
  origen: string;
}

/** Where the lead was filed. */
export interface LeadReceipt {
  /** The conversation the lead became (`conv_…`), handed to a person. */
  conversacion: string;
}

/** Provided by `ventas`. */
export interface LeadInbox {
  /**
   * Files a lead of the space as a conversation handed to a person (the agent does not answer it), with the
   * contact and the message in its transcript, and announces it like any hand-off (`ventas.conversacion_derivada`).
   */
  receive(spaceId: string, lead: LeadInput): Promise<LeadReceipt>;
}
