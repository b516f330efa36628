import assert from 'node:assert/strict';
import { test } from 'node:test';
import { questionKind } from './question-kind.js';
import { contentQuestion } from './question-words.js';

test('question kinds are recognised in Spanish and English', () => {
  const cases: [string, ReturnType<typeof questionKind>][] = [
    ['¿Cómo instalo un paquete .deb que descargué?', 'procedure'],
    ['¿Qué orden muestra la hora del sistema?', 'procedure'],
    ['How do I restart a service?', 'procedure'],
    ['¿Qué es un paquete virtual?', 'definition'],
    ['What is a virtual package?', 'definition'],
    ['¿Para qué sirve Coturn?', 'definition'],
    ['¿Cuántos días dura la garantía?', 'quantity'],
    ['How many users can log in?', 'quantity'],
    ['¿Qué puertos hay que abrir para el correo?', 'quantity'],
    ['What ports does the mail server use?', 'quantity'],
    ['¿Dónde se guarda la configuración de APT?', 'location'],
    ['¿En qué archivo se definen los repositorios?', 'location'],
    ['Where is the cache stored?', 'location'],
    ['¿Puedo usar Debian sin conexión?', 'yes-no'],
    ['Can I downgrade a package?', 'yes-no'],
    ['¿Cuáles son las áreas del archivo Debian?', 'list'],
    ['What are the archive areas?', 'list'],
    ['Horario de atención', 'other'],
    // Asking where something is reached: an address, a path.
    ['¿En qué dirección abro Roundcube?', 'location'],
    ['¿Cómo accedo desde Windows a las carpetas compartidas?', 'location'],
    ['¿Cómo encuentro mi servidor en la red local?', 'location'],
    // Requirements, and plural "which X", ask for several things; plural quantities stay quantities.
    ['¿Qué necesito para empezar con FreedomBox?', 'list'],
    ['What do I need to start?', 'list'],
    ['¿Qué programas forman el servidor de correo?', 'list'],
    ['¿Qué puertos necesita Mumble?', 'quantity'],
    ['¿Qué haces con los paquetes?', 'other'],
    // No interrogative word: a yes/no question, whatever its first word.
    ['¿Las instantáneas funcionan con cualquier sistema de archivos?', 'yes-no'],
    ['¿MiniDLNA funciona a través de OpenVPN?', 'yes-no'],
  ];
  for (const [question, kind] of cases) assert.equal(questionKind(question), kind, question);
});

test('question-form words and light verbs are left out of the searched words', () => {
  assert.equal(contentQuestion('¿Cómo puedo hacer para que se vea la hora?'), 'vea la hora');
  assert.equal(contentQuestion('¿Qué hago si quiero instalar un paquete?'), 'si instalar un paquete');
  assert.equal(contentQuestion('How do I restart a service?'), 'restart a service');
  assert.equal(contentQuestion('¿Para qué sirve Coturn?'), 'coturn');
  assert.equal(contentQuestion('¿Cómo?'), '¿Cómo?', 'nothing else left: the question as it is');
  assert.equal(
    contentQuestion('¿En qué dirección ven los usuarios el contenido?'),
    'en dirección los usuarios el contenido',
  );
  assert.equal(contentQuestion('¿En qué dirección abro Roundcube?'), 'en dirección roundcube');
});
