// The fixed texts of a published page's lead form and of the page that thanks for it, in the page's language.
import type { Language } from '../model.js';

export interface FormWords {
  titulo: string;
  intro: string;
  nombre: string;
  contacto: string;
  contactoAyuda: string;
  mensaje: string;
  consentimiento: string;
  enviar: string;
  trampa: string;
  gracias: string;
  graciasTexto: string;
  volver: string;
}

const ES: FormWords = {
  titulo: 'Escríbenos',
  intro: 'Déjanos tus datos y te contactamos.',
  nombre: 'Nombre',
  contacto: 'Correo electrónico o teléfono',
  contactoAyuda: 'Solo lo usamos para responderte.',
  mensaje: 'Mensaje (opcional)',
  consentimiento: 'Acepto que usen estos datos para contactarme sobre esta consulta.',
  enviar: 'Enviar',
  trampa: 'Deja este campo vacío',
  gracias: '¡Gracias!',
  graciasTexto: 'Hemos recibido tus datos y te contactaremos pronto.',
  volver: 'Volver a la página',
};

const EN: FormWords = {
  titulo: 'Get in touch',
  intro: 'Leave your details and we will contact you.',
  nombre: 'Name',
  contacto: 'Email or phone',
  contactoAyuda: 'We only use it to answer you.',
  mensaje: 'Message (optional)',
  consentimiento: 'I agree to be contacted about this enquiry using these details.',
  enviar: 'Send',
  trampa: 'Leave this field empty',
  gracias: 'Thank you!',
  graciasTexto: 'We have received your details and will contact you soon.',
  volver: 'Back to the page',
};

export const formWords = (idioma: Language): FormWords => (idioma === 'en' ? EN : ES);
