// The words of requests in French, Spanish, Italian, Dutch and Portuguese, beside the English and
// German tables of word-tables.ts (which already has a few French and Spanish words; none is
// repeated here): the function words dropped like English filler, and the words people use to ask
// for what API catalogs offer, each to the English word the tools use. Written from the languages
// (the everyday word for each of the catalogs'common concepts, its plural where a plain English
// `s` does not make it), not from any query set. Keys are folded (lower case, no accents), as
// words.ts `fold` leaves a word; a word that is an English word too (`vol`, `op`, `brand`, `wet`,
// `costa`, `partido`) is left out, since both a request's and a tool's words pass through the
// table. Part of the index caches'key with the other tables (words.ts WORD_TABLES).

/** Articles, pronouns, prepositions, question words, auxiliaries and requests' verbs (give, show, want to know). */
export const MORE_FILLER_WORDS: readonly string[] =
  // Prepositions word-tables.ts does not have: French, Spanish, Italian, Dutch, Portuguese.
  (
    'chez pres vers entre desde hasta hacia vicino presso senza nabij rond naast tegen zonder tot perto contra ' +
    // French, beside word-tables.ts's.
    'fait fais faire puis peux peut pouvez veux voudrais savoir trouve trouver liste tous toutes tout tres ' +
    'plait ete etait sera seront dernier derniere derniers dernieres recent recente recents recentes ' +
    // Spanish, beside word-tables.ts's.
    'es hace hara puedes puede quiero necesito saber busca buscar encuentra lista todos todas muy mas favor ' +
    'ultimo ultima ultimos ultimas reciente recientes esto este estos estas ese ' +
    // Italian.
    'il lo gli uno di da ha della dello dei degli delle alla agli alle nel nella nei negli nelle sul sulla ' +
    'dal dalla tra che cosa quando quanto quanta quanti quante quale quali perche ' +
    'sono siamo oggi domani ieri adesso mio miei mie tuo suo nostro nostra questo questa questi queste quello quella ' +
    'dammi mostrami mostra dimmi vorrei voglio sapere trova cerca favore fara hanno ultimi ultime recenti attuale attuali ' +
    // Dutch.
    'het een van voor bij nu zijn wat wie waar wanneer hoe hoeveel welke welk mijn jouw onze hier vandaag gisteren ' +
    'geef toon laat zien ik jij wij dit deze naar uit aan nog ook actuele huidige graag alsjeblieft ' +
    'kun kunt wil willen weten zoek lijst laatste recente ' +
    // Portuguese.
    'um uma uns umas em tem das aos pelo pela quais quem onde quanto quantos quantas meu minha meus ' +
    'minhas seu hoje amanha ontem agora atual atuais sao estao mostre diga quero preciso'
  ).split(' ');

/**
 * Each line: the tools' English word (two words: a value mapping to both), then the words of the
 * five languages for it. Read into MORE_LANGUAGES_TABLE.
 */
const WORDS_FOR: readonly string[] = [
  // Weather and what the sky and the earth do.
  'weather: temps tiempo tempo weer weerbericht pluie lluvia pioggia regen chuva neige nieve neve sneeuw',
  'forecast: previsions pronosticos previsione previsioni verwachting voorspelling previsao previsoes',
  'weather forecast: weersverwachting',
  'temperature: temperatura temperatuur',
  'wind: viento vento',
  'earthquake: seismes tremblement terremotos sismos terremoti aardbeving aardbevingen',
  'volcano: volcan vulcano vulkaan vulcao',
  'flood: alluvione inondazione overstroming overstromingen inundacao enchente',
  'fire: incendie incendies incendio incendios bosbrand',
  'hurricane: ouragan huracan uragano orkaan furacao',
  'storm: tempete tormenta tempesta tempestade',
  'tide: maree marees marea mareas getij getijden',
  // Air and pollution.
  'air: aria lucht',
  'quality: qualite calidad qualita kwaliteit qualidade',
  'air quality: luchtkwaliteit',
  'pollution: inquinamento contaminacion vervuiling poluicao',
  // The sky.
  'sun: soleil zon',
  'moon: lune maan',
  'star: etoile etoiles estrella estrellas stella ster sterren estrela',
  'planet: planete planeta pianeta',
  'asteroid: asteroide',
  'space: espace espacio spazio ruimte',
  // Money and markets.
  'price: prezzo prezzi costo costi prijs prijzen kost koers koersen preco precos custa',
  'stock: bourse bolsa borsa beurs aandeel aandelen azione azioni accion acciones acao acoes',
  'rate: taux tasa tasso',
  'exchange rate: wisselkoers wisselkoersen',
  'currency: valuta moeda moneta',
  'bank: banque banco banca',
  'money: dinero soldi dinheiro',
  'inflation: inflacion inflazione inflatie inflacao',
  'interest: interet interets interes intereses',
  'debt: dette deuda debito schuld divida',
  'tax: impot impots impuesto impuestos belasting imposto impostos',
  'gdp: pib bbp',
  'wallet: portafoglio portemonnee carteira',
  'trend: tendance tendances tendencia tendencias tendenza tendenze',
  // Holidays and time.
  'holiday: feestdag feestdagen festivi festivita vacances vacaciones vacanze vakantie ferias',
  'next: prochain prochaine proximo proxima prossimo prossima volgende',
  'day: jour jours dia dias giorno giorni dag dagen',
  'week: semaine semana settimana',
  'month: mois mese maand',
  'year: anno jaar',
  // News, politics, people.
  'news: notizie notizia nieuws',
  'election: elecciones elezioni elezione verkiezing verkiezingen eleicao eleicoes',
  'poll: sondage sondages encuesta encuestas sondaggio sondaggi peiling peilingen sondagem',
  'population: popolazione bevolking populacao habitants habitantes abitanti inwoners',
  'government: gouvernement gobierno governo regering',
  'politician: depute deputes diputado diputados deputato deputati kamerlid kamerleden deputado deputados',
  'unemployment: chomage desempleo disoccupazione werkloosheid desemprego',
  'statistic: statistica statistiche statistiek statistieken estatistica estadisticas',
  // Law, companies, work.
  'law: legge leggi wetten wetgeving lei leis',
  'court: tribunale rechtbank',
  'decision: sentenza sentencia jugement',
  'company: societe societes azienda aziende impresa imprese bedrijf bedrijven',
  'patent: brevetto brevetti octrooi',
  'job: lavoro vacature vacatures emprego empregos empleos',
  'salary: stipendio salaris',
  // Travel and transport.
  'train: treno treni trein treinen trem trenes',
  'station: gare estaciones stazione stazioni estacao',
  'timetable: horaire horaires horario horarios orario orari dienstregeling',
  'departure: departs salidas partenza partenze vertrek',
  'arrival: arrivee arrivees llegada llegadas arrivo arrivi aankomst chegada chegadas',
  'delay: retraso retrasos ritardo ritardi vertraging vertragingen atraso atrasos',
  'flight: vuelo vuelos volo voli vlucht vluchten voo voos',
  'airport: aeroport aeroports aeropuerto aeropuertos aeroporto aeroporti luchthaven vliegveld',
  'aircraft: avion avions aereo vliegtuig aviao',
  'bus: autobus',
  'bike: velo velos bicicleta bicicletta fiets fietsen',
  'car: voiture voitures coche coches carro',
  'road: strada strade estrada carreteras',
  'traffic: traffico verkeer transito',
  'parking: aparcamiento parcheggio parkeren estacionamento',
  'fuel: carburant gasolina benzina benzine carburante',
  'charging: recarga ricarica laadpaal laadpalen',
  'accommodation: hebergement alojamiento alloggio',
  'city: citta stad steden cidade cidades ciudades',
  'country: pays paises paese paesi',
  'map: kaart mappa',
  'address: indirizzo adres endereco',
  // Health.
  'hospital: ospedale ospedali ziekenhuis ziekenhuizen hospitais',
  'doctor: medecin medecins medico medici',
  'pharmacy: pharmacie farmacia apotheek',
  'disease: maladie maladies enfermedad enfermedades malattia malattie ziekte ziekten doenca',
  'vaccine: vaccin vaccins vacuna vacunas vaccino vaccini vacina',
  'drug: farmaco farmaci medicijn medicijnen',
  // Food and drink.
  'recipe: recette recettes receta recetas ricetta ricette recept recepten receita receitas',
  'food: nourriture comida comidas cibo eten',
  'drink: boisson boissons bebida bebidas bevanda bevande drankje',
  'wine: vino vini wijn vinho',
  'beer: biere bieres cerveza birra bier cerveja',
  'restaurant: restaurante ristorante ristoranti',
  // Culture and knowledge.
  'museum: musee musees museo musei musea museu',
  'painting: peinture peintures cuadro dipinto dipinti schilderij schilderijen pintura',
  'artist: artiste artista artisti kunstenaar',
  'heritage: patrimoine patrimonio erfgoed',
  'book: livres libro libros libri boek boeken livro livros',
  'author: auteur autor autore schrijver',
  'film: pelicula peliculas filme',
  'song: chanson chansons cancion canciones canzone canzoni liedje',
  'music: musique musica muziek',
  'game: jeu jeux juego juegos gioco giochi spel jogo jogos',
  'match: partita partite wedstrijd wedstrijden',
  'team: equipe equipes equipo equipos squadra squadre ploeg equipa',
  'player: joueur joueurs jugador jugadores giocatore giocatori speler spelers jogador jogadores',
  'standing: classement clasificacion classifica classificacao',
  'football: futbol calcio voetbal futebol',
  'dictionary: dictionnaire diccionario dizionario woordenboek dicionario',
  'word: palabra palabras parola woord woorden palavra',
  'synonym: synonyme synonymes sinonimo sinonimos sinonimi synoniem',
  'translation: traduction traduccion traduzione vertaling traducao',
  'definition: definicion',
  'meaning: significato significado betekenis',
  'pronunciation: prononciation pronunciacion pronuncia',
  'school: ecoles escuelas scuola scuole escola',
  'university: universite universidad universita universiteit universidade',
  // Nature.
  'animal: animale animali dier dieren',
  'species: espece especes especie especies specie',
  'bird: oiseau oiseaux pajaro pajaros uccello uccelli vogel vogels passaro',
  'plant: plante plantes planta plantas pianta piante',
  'river: riviere fiume rivier',
];

/** Each word to the tools' English word, as word-tables.ts SYNONYMS_TABLE maps German's. */
export const MORE_LANGUAGES_TABLE: Record<string, string> = Object.fromEntries(
  WORDS_FOR.flatMap((line) => {
    const [english, words] = line.split(': ') as [string, string];
    return words.split(' ').map((word) => [word, english]);
  }),
);
